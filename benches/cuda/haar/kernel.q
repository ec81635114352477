% bytes: 805306368
% One level of the forward 2-D Haar transform (lifting, unnormalised) of a 4096x4096x3
% image, out of place: a horizontal pass into a temporary, then a vertical pass. Each
% thread handles one pair of samples and writes the average and the difference.

function [] = __kernel__ make_image(x : cube'unchecked, pos : ivec3)
    i = pos[0]
    j = pos[1]
    x[pos] = mod(i * 37 + j * 11 + pos[2] * 71 + i * j, 256)
endfunction

% pos covers [M, N/2, C]: averages go to the left half, differences to the right.
function [] = __kernel__ haar_horizontal(x : cube'unchecked, y : cube'unchecked, half : int, pos : ivec3)
    a = x[pos[0], 2 * pos[1], pos[2]]
    b = x[pos[0], 2 * pos[1] + 1, pos[2]]
    y[pos] = 0.5 * (a + b)
    y[pos[0], pos[1] + half, pos[2]] = a - b
endfunction

% pos covers [M/2, N, C]: averages go to the top half, differences to the bottom.
function [] = __kernel__ haar_vertical(x : cube'unchecked, y : cube'unchecked, half : int, pos : ivec3)
    a = x[2 * pos[0], pos[1], pos[2]]
    b = x[2 * pos[0] + 1, pos[1], pos[2]]
    y[pos] = 0.5 * (a + b)
    y[pos[0] + half, pos[1], pos[2]] = a - b
endfunction

function [] = haar_level(x, tmp, y)
    [M, N, C] = size(x)
    parallel_do([M, N / 2, C], x, tmp, int(N / 2), haar_horizontal)
    parallel_do([M / 2, N, C], tmp, y, int(M / 2), haar_vertical)
endfunction

reps = 30
x = zeros(4096, 4096, 3)
parallel_do(size(x), x, make_image)
tmp = zeros(size(x))
y = zeros(size(x))

haar_level(x, tmp, y)
for r = 1..reps
    tic()
    haar_level(x, tmp, y)
    toc("rep")
endfor
% The differences cancel in a plain sum: weight the quadrants differently.
print "checksum: ", sum(y) + 3 * sum(abs(y))
