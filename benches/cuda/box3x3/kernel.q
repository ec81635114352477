% bytes: 402653184
% 3x3 mean filter of a 4096x4096x3 image, non-separable: nine reads per output, with
% zero extension at the borders (the default boundary mode inside kernels). The
% overlapping reads of neighbouring threads are served by the caches; one read and one
% write of the image per repetition.

function [] = __kernel__ make_image(x : cube'unchecked, pos : ivec3)
    i = pos[0]
    j = pos[1]
    x[pos] = mod(i * 37 + j * 11 + pos[2] * 71 + i * j, 256)
endfunction

function [] = __kernel__ box3x3(x : cube, y : cube'unchecked, pos : ivec3)
    s = 0.0
    for di = -1..1
        for dj = -1..1
            s += x[pos + [di, dj, 0]]
        endfor
    endfor
    y[pos] = s * (1.0 / 9)
endfunction

reps = 30
x = zeros(4096, 4096, 3)
parallel_do(size(x), x, make_image)
y = zeros(size(x))

parallel_do(size(y), x, y, box3x3)
for r = 1..reps
    tic()
    parallel_do(size(y), x, y, box3x3)
    toc("rep")
endfor
print "checksum: ", sum(y)
