% Whole-array reductions over arrays large enough that a GPU runs them in chunks: each
% block of threads takes a run of consecutive block rows, as many as the grid leaves
% (`blazar_codegen_c::cuda`, "Coarsening"), and the grid is one wave of the blocks the
% GPU holds. A prime-ish 1031x1027 matrix (ragged blocks: positions past the edge are
% skipped), a 512x512x3 cube (the three-statement pipeline's shape) and a 2^20-element
% vector, as whole-array reductions and as kernel outputs (`+=`), whose coarsened runs
% a GPU sizes to one wave of resident blocks. Every value and partial sum is an integer below 2^24, so any order of the
% additions gives these exact results.
% ==
% options { --fuse-min 0 }
% stdout {
% -2 5 -5 288774 2887736
% 2271911 8 -4
% 3145722 6 -6
% -2 2271911 3145722 3145836
% }
function [] = __kernel__ fill2(x : mat'unchecked, pos : ivec2)
    x[pos] = mod(pos[0] * 7 + pos[1] * 3, 11) - 5
endfunction

function [] = __kernel__ fill3(z : cube'unchecked, pos : ivec3)
    z[pos] = mod(pos[0] * 5 + pos[1] * 3 + pos[2] * 2, 9)
endfunction

function [] = __kernel__ fill1(v : vec'unchecked, pos : int)
    v[pos] = mod(pos, 7)
endfunction

x = zeros(1031, 1027)
parallel_do(size(x), x, fill2)
print sum(x), " ", max(x), " ", min(x), " ", sum(x > 2), " ", sum(abs(x))

z = zeros(512, 512, 3)
parallel_do(size(z), z, fill3)
t = z > 4
print sum(t .* z), " ", max(z), " ", min(z - 4)

v = zeros(2^20)
parallel_do(numel(v), v, fill1)
print sum(v), " ", max(v), " ", min(-v)

function total = __kernel__ ksum2(x : mat, pos : ivec2)
    total += x[pos]
endfunction
function total = __kernel__ ksum3(z : cube, pos : ivec3)
    total += z[pos] * (z[pos] > 4)
endfunction
function total = __kernel__ ksum1(v : vec, pos : int)
    total += v[pos]
endfunction
w = zeros(2^20 + 37)
parallel_do(numel(w), w, fill1)
print parallel_do(size(x), x, ksum2), " ", parallel_do(size(z), z, ksum3), " ", _
      parallel_do(numel(v), v, ksum1), " ", parallel_do(numel(w), w, ksum1)
