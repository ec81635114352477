% bytes: 16778240
% 256-bin histogram of a 2048x2048 image of 8-bit intensities (stored as scalars).
% Each block of 256 threads counts four image rows into a histogram in shared memory
% (atomic `+=`), then adds it to the global histogram (atomic `+=` again).

function [] = __kernel__ make_image(x : mat'unchecked, pos : ivec2)
    i = pos[0]
    j = pos[1]
    x[pos] = mod(i * i * 31 + j * j * 17 + i * j * 7 + i * 3 + j, 256)
endfunction

function [] = __kernel__ histogram(im : mat'unchecked, h : vec'unchecked, rows : int, _
                                   pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    bins = shared(256)
    t = blkpos[1]
    nt = blkdim[1]
    for b = t..nt..255
        bins[b] = 0.0
    endfor
    syncthreads
    for r = pos[0] * rows..pos[0] * rows + rows - 1
        for c = t..nt..size(im, 1) - 1
            bins[int(im[r, c])] += 1
        endfor
    endfor
    syncthreads
    for b = t..nt..255
        h[b] += bins[b]
    endfor
endfunction

reps = 7
[M, N] = [2048, 2048]
rows = 4
im = zeros(M, N)
parallel_do(size(im), im, make_image)

h = zeros(256)
parallel_do([[M / rows, 256], [1, 256]], im, h, rows, histogram)
for r = 1..reps
    h = zeros(256)
    tic()
    parallel_do([[M / rows, 256], [1, 256]], im, h, rows, histogram)
    toc("rep")
endfor
print "checksum: ", sum(h .* h)
