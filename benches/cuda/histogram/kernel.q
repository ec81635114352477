% bytes: 268436480
% 256-bin histogram of an 8192x8192 image of 8-bit intensities (stored as scalars).
% Each block of 256 threads counts eight image rows into an integer histogram in shared
% memory (`bins : vec[int] = shared(256)`, as the CUDA C reference's unsigned bins;
% atomic `+=`; consecutive threads read consecutive columns), then adds it to the
% global histogram (atomic `+=` again): 1024 blocks, 256 global atomics each.

function [] = __kernel__ make_image(x : mat'unchecked, pos : ivec2)
    i = pos[0]
    j = pos[1]
    x[pos] = mod(i * 37 + j * 11 + i * j * 7, 256)
endfunction

function [] = __kernel__ clear(h : vec'unchecked, pos : int)
    h[pos] = 0.0
endfunction

function [] = __kernel__ histogram(im : mat'unchecked, h : vec'unchecked, rows : int, _
                                   pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    bins : vec[int] = shared(256)
    t = blkpos[1]
    nt = blkdim[1]
    for b = t..nt..255
        bins[b] = 0
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

reps = 30
[M, N] = [8192, 8192]
rows = 8
im = zeros(M, N)
parallel_do(size(im), im, make_image)
h = zeros(256)

parallel_do(256, h, clear)
parallel_do([[M / rows, 256], [1, 256]], im, h, rows, histogram)
for r = 1..reps
    % Clearing the histogram is set-up, outside the timed region.
    parallel_do(256, h, clear)
    tic()
    parallel_do([[M / rows, 256], [1, 256]], im, h, rows, histogram)
    toc("rep")
endfor
print "checksum: ", sum(h .* h)
