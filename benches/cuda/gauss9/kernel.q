% bytes: 1073741824
% Gaussian blur (sigma 2) of an 8192x8192 image with a separable 9-tap filter: a
% vertical pass into a temporary, then a horizontal pass; zero extension at the
% borders. Each pass reads and writes the whole image once (the nine overlapping reads
% of neighbouring threads are served by the caches).

function [] = __kernel__ make_image(x : mat'unchecked, pos : ivec2)
    i = pos[0]
    j = pos[1]
    x[pos] = mod(i * 37 + j * 11 + i * j, 256)
endfunction

function [] = __kernel__ blur_vertical(x : mat, w : vec'unchecked, t : mat'unchecked, pos : ivec2)
    s = 0.0
    for k = -4..4
        s += w[k + 4] * x[pos[0] + k, pos[1]]
    endfor
    t[pos] = s
endfunction

function [] = __kernel__ blur_horizontal(t : mat, w : vec'unchecked, y : mat'unchecked, pos : ivec2)
    s = 0.0
    for k = -4..4
        s += w[k + 4] * t[pos[0], pos[1] + k]
    endfor
    y[pos] = s
endfunction

reps = 30
sigma = 2.0
w = zeros(9)
for k = 0..8
    w[k] = exp(-((k - 4)^2) / (2 * sigma^2))
endfor
w = w / sum(w)

x = zeros(8192, 8192)
parallel_do(size(x), x, make_image)
tmp = zeros(size(x))
y = zeros(size(x))

parallel_do(size(x), x, w, tmp, blur_vertical)
parallel_do(size(y), tmp, w, y, blur_horizontal)
for r = 1..reps
    tic()
    parallel_do(size(x), x, w, tmp, blur_vertical)
    parallel_do(size(y), tmp, w, y, blur_horizontal)
    toc("rep")
endfor
print "checksum: ", sum(y)
