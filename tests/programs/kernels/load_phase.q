% Row-vector stencils large enough for a GPU to run 8 (or 4) rows per thread, whose
% taps a GPU may load in one phase before the rows (`BLAZAR_CUDA_LOAD_PHASE=1`,
% `cuda/load_phase.rs`): constant shifts that cross chunks on both sides and leave the
% board (zero extension), rows not a multiple of 8, int rows with an early return and
% a data-dependent column of the same array. Each is checked against the same kernel
% written with its shifts passed as arguments (read tap by tap, never in the phase).
function [] = __kernel__ sten(x : mat, y : mat'unchecked, pos : ivec2)
    y[pos] = x[pos + [-1, -5]] + x[pos + [-1, 2]] * 2 + x[pos + [0, -1]] * 3 + _
             x[pos] * 4 + x[pos + [1, 1]] * 5 + x[pos + [1, -4]] * 6
endfunction

function [] = __kernel__ sten_args(x : mat, y : mat'unchecked, a : int, b : int, c : int, d : int, e : int, f : int, pos : ivec2)
    y[pos] = x[pos + [a, e]] + x[pos + [a, b]] * 2 + x[pos + [0, a]] * 3 + _
             x[pos[0], pos[1] + c] * 4 + x[pos + [d, d]] * 5 + x[pos + [d, f]] * 6
endfunction

function [] = __kernel__ isten(a : mat[int], y : mat[int]'unchecked, pos : ivec2)
    if mod(pos[1], 7) == 3
        return
    endif
    n = size(a, 1)
    j = mod(pos[1] * 3 + a[pos], n)
    y[pos] = a[pos + [0, 1]] * 2 - a[pos + [-2, -3]] + a[pos[0], j]
endfunction

function [] = __kernel__ isten_args(a : mat[int], y : mat[int]'unchecked, u : int, v : int, w : int, pos : ivec2)
    if mod(pos[1], 7) == 3
        return
    endif
    n = size(a, 1)
    j = mod(pos[1] * 3 + a[pos[0], pos[1] + w], n)
    y[pos] = a[pos + [w, u]] * 2 - a[pos + [v, v - 1]] + a[pos[0], j]
endfunction

function x = board(m, n)
    x = zeros(m, n)
    parallel_do(size(x), x, __kernel__ (x : mat'unchecked, pos : ivec2) -> _
        x[pos] = mod(pos[0] * 7 + pos[1] * 3, 11) + mod(pos[1], 5) * 0.25)
endfunction

function ok = check(m : int, n : int)
    x = board(m, n)
    y = zeros(m, n)
    z = ones(m, n)
    parallel_do(size(y), x, y, sten)
    parallel_do(size(z), x, z, -1, 2, 0, 1, -5, -4, sten_args)
    a = int(x * 4) - 20
    p = int(zeros(m, n))
    q = int(zeros(m, n))
    parallel_do(size(p), a, p, isten)
    parallel_do(size(q), a, q, 1, -2, 0, isten_args)
    ok = max(abs(y - z)) == 0 && max(abs(p - q)) == 0
    print m, " x ", n, ": ", ok, " ", sum(y), " ", sum(p)
endfunction

check(2056, 1024)
check(1028, 2048)
check(37, 1024)
% ==
% stdout { 2056 x 1024: 1 242616240 7203867
% 1028 x 2048: 1 242767552 7216461
% 37 x 1024: 1 4288952 132860 }
