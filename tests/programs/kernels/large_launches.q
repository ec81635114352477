% Launches of over half a million positions, where the GPU runs several positions per
% thread along the first index of pos and passes arrays as restrict pointers: a
% zero-extended 3x3 box on 1027 x 1031 (the row count is no multiple of the run, the
% prime width gives a ragged grid), a kernel that returns early for half of its rows, a
% 3-d kernel, and a kernel given the same array as input and output (so no restrict);
% then a small ragged launch with a kernel output. Each is checked with host code.
function [] = __kernel__ box(x : mat, y : mat'unchecked, pos : ivec2)
    s = 0.0
    for di = -1..1
        for dj = -1..1
            s += x[pos + [di, dj]]
        endfor
    endfor
    y[pos] = s
endfunction

function [] = __kernel__ odd_rows(y : mat'unchecked, pos : ivec2)
    if mod(pos[0], 2) == 0
        return
    endif
    y[pos] = pos[0] * 2 + pos[1]
endfunction

function [] = __kernel__ scale_into(a : mat'unchecked, b : mat'unchecked, pos : ivec2)
    b[pos] = a[pos] * 3 - 1
endfunction

function [total : scalar] = __kernel__ sum_odd(v : vec'unchecked, pos : int)
    if mod(pos, 2) == 1
        total += v[pos]
    endif
endfunction

function [] = __kernel__ layers(c : cube'unchecked, pos : ivec3)
    c[pos] = pos[0] * 10000 + pos[1] * 100 + pos[2]
endfunction

m = 1027
n = 1031
x = zeros(m, n)
parallel_do(size(x), x, __kernel__ (x : mat'unchecked, pos : ivec2) -> _
    x[pos] = mod(pos[0] * 7 + pos[1] * 13, 17))
rows = transpose(0..m-1)
cols = 0..n-1
print max(abs(x - mod(rows * 7 + cols * 13, 17))) == 0

y = zeros(m, n)
parallel_do(size(x), x, y, box)
p = zeros(m + 2, n + 2)
p[1..m, 1..n] = x
want = zeros(m, n)
for di = 0..2
    for dj = 0..2
        want = want + p[di..di + m - 1, dj..dj + n - 1]
    end
end
print max(abs(y - want)) == 0

z = zeros(m, n) - 1
parallel_do(size(z), z, odd_rows)
odd = mod(rows, 2) == 1
print max(abs(z - (odd .* (rows * 2 + cols) - (1 - odd)))) == 0

w = copy(x)
parallel_do(size(w), w, w, scale_into)
print max(abs(w - (x * 3 - 1))) == 0

c = zeros(66, 64, 130)
parallel_do(size(c), c, layers)
want3 = zeros(66, 64, 130)
plane = transpose(0..63) * 100 + (0..129)
for i = 0..65
    want3[i, 0..63, 0..129] = plane + i * 10000
end
print max(abs(c - want3)) == 0
print c[65, 63, 129]

v = 0..1030
print parallel_do(numel(v), v, sum_odd) == 515 * 515
% ==
% stdout {
% 1
% 1
% 1
% 1
% 1
% 656429
% 1
% }
