//! Unit tests of `if`s printed as stores of selects (`codegen-c/cpp/selects.rs`): the
//! compare-exchange of a sorting network gives the interpreter's results (NaN, signed
//! zeros, ties, odd row lengths), the rewrite applies where its conditions hold and not
//! elsewhere, and `'checked` writes report the taken branch's line.

use super::tests::{run_on, same};
use crate::CpuTier;

/// A bitonic network over the rows of a matrix (one block per row, one thread per
/// compare-exchange, the pair found by inserting a 0 bit), on rows holding NaN, -0 and
/// +0, ties and values that only differ in their last bit; rows shorter than the network
/// are padded in shared memory with 2.
const BITONIC: &str = "
function [] = __kernel__ bitonic_rows(x : mat'unchecked, y : mat'unchecked, n : int, _
                                      pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    s = shared(n)
    t = blkpos[1]
    nt = blkdim[1]
    s[t] = t < size(x, 1) ? x[pos[0], t] : 2.0
    s[t + nt] = t + nt < size(x, 1) ? x[pos[0], t + nt] : 2.0
    syncthreads
    k = 2
    while k <= n
        j = shr(k, 1)
        while j > 0
            i = 2 * t - and(t, j - 1)
            a = s[i]
            b = s[i + j]
            if and(i, k) == 0
                s[i] = min(a, b)
                s[i + j] = max(a, b)
            else
                s[i] = max(a, b)
                s[i + j] = min(a, b)
            endif
            syncthreads
            j = shr(j, 1)
        endwhile
        k = shl(k, 1)
    endwhile
    if t < size(x, 1)
        y[pos[0], t] = s[t]
    endif
    if t + nt < size(x, 1)
        y[pos[0], t + nt] = s[t + nt]
    endif
endfunction
";

#[test]
fn sorting_networks_keep_the_interpreters_bits() {
    let src = format!(
        "{BITONIC}
[M, N] = [5, 13]
x = zeros(M, N)
for r = 0..M - 1
    for c = 0..N - 1
        x[r, c] = mod(r * 7 + c * c * 5, 11) / 4 - 1
    endfor
endfor
x[0, 3] = 0/0
x[0, 9] = 0/0
x[1, 0] = -0.0
x[1, 5] = 0.0
x[1, 6] = -0.0
x[2, :] = 0/0
x[3, 2] = 1 + 2^-22
x[3, 7] = 1
x[3, 11] = 1 - 2^-23
y = zeros(M, N)
parallel_do([[M, 8], [1, 8]], x, y, 16, bitonic_rows)
print y
print 1 ./ y[1, :]
print sum(isnan(y), 1)
"
    );
    let out = same(&src);
    assert!(out.contains("Inf"), "{out}");
}

/// Which `if`s become stores of selects in the C++ the native tier compiles.
#[test]
fn the_rewrite_takes_only_pure_paired_stores() {
    let src = "
function [] = __kernel__ pure(y : vec, z : vec, pos : int)
    a = pos * 3
    if and(pos, 2)
        y[pos] = a
        z[pos] = -a
    else
        y[pos] = -a
        z[pos] = a
    endif
endfunction
function [] = __kernel__ reads(y : vec, z : vec, pos : int)
    if mod(pos, 3) == 0
        y[pos] = z[pos]
    else
        y[pos] = z[numel(z) - 1 - pos]
    endif
endfunction
function [] = __kernel__ lines(z : vec'checked, pos : int)
    if pos > 4
        z[pos] = 1
    else
        z[pos] = 2
    endif
endfunction
y = zeros(10)
z = zeros(10)
parallel_do(10, y, z, pure)
parallel_do(10, y, z, reads)
parallel_do(10, z, lines)
print y, z
";
    let out = same(src);
    assert!(out.contains('['), "{out}");
    let (_, kernels) = run_on(src, CpuTier::Interp, 1, false);
    let text = |name: &str| {
        let k = kernels.iter().find(|k| k.name == name).expect("kernel");
        let plan = blazar_codegen_c::cpp::plan(k).expect("native plan");
        blazar_codegen_c::cpp::generate(k, &plan, None)
    };
    let body = |s: String| s[s.find("// ---- kernel").unwrap_or(0)..].to_string();
    // The stores of `pure` pick between computed temporaries (`(bz_i3 ? bz_i4 : bz_i5)`);
    // values that read memory, and checked stores on different lines, keep the branch.
    let select = " ? bz_i";
    let pure = body(text("pure"));
    assert!(pure.matches(select).count() >= 2, "{pure}");
    for name in ["reads", "lines"] {
        let t = body(text(name));
        assert!(!t.contains(select), "{t}");
    }
}

/// `'checked` stores of both branches on one line: an index outside reports that line,
/// from the thread of lowest position, as on the interpreter.
#[test]
fn checked_selects_report_the_branch_line() {
    let src = "
function [] = __kernel__ k(z : vec'checked, pos : int)
    if mod(pos, 2) == 0; z[pos + 3] = 1; else; z[pos + 3] = 2; endif
endfunction
z = zeros(10)
parallel_do(10, z, k)
print z
";
    let out = same(src);
    assert!(out.contains("ERROR:") && out.contains("line 3"), "{out}");
}
