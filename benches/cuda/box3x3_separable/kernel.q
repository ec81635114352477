% bytes: 805306368
% 3x3 mean filter of a 4096x4096x3 image, separable: a vertical pass into a temporary,
% then a horizontal pass (zero extension at the borders). Each pass reads and writes
% the whole image once.

function [] = __kernel__ make_image(x : cube'unchecked, pos : ivec3)
    i = pos[0]
    j = pos[1]
    x[pos] = mod(i * 37 + j * 11 + pos[2] * 71 + i * j, 256)
endfunction

function [] = __kernel__ sum_vertical(x : cube, t : cube'unchecked, pos : ivec3)
    t[pos] = x[pos + [-1, 0, 0]] + x[pos] + x[pos + [1, 0, 0]]
endfunction

function [] = __kernel__ mean_horizontal(t : cube, y : cube'unchecked, pos : ivec3)
    y[pos] = (t[pos + [0, -1, 0]] + t[pos] + t[pos + [0, 1, 0]]) * (1.0 / 9)
endfunction

reps = 30
x = zeros(4096, 4096, 3)
parallel_do(size(x), x, make_image)
tmp = zeros(size(x))
y = zeros(size(x))

parallel_do(size(x), x, tmp, sum_vertical)
parallel_do(size(y), tmp, y, mean_horizontal)
for r = 1..reps
    tic()
    parallel_do(size(x), x, tmp, sum_vertical)
    parallel_do(size(y), tmp, y, mean_horizontal)
    toc("rep")
endfor
print "checksum: ", sum(y)
