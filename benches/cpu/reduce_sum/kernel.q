% bytes: 67108864
% Sum of 2^24 floats: 64 blocks of 256 threads; each thread accumulates a strided
% part of the input, the block combines its partial sums by a tree in shared memory,
% and thread 0 adds the block's total to the kernel output `y` (atomic).

function [] = __kernel__ make_data(x : vec'unchecked, pos : int)
    x[pos] = mod(pos * 7, 1000) / 1000
endfunction

function [y : scalar] = __kernel__ sum_kernel(x : vec'unchecked, stride : int, _
                                             pos : int, blkpos : int, blkdim : int)
    assert(blkdim <= 1024)
    part = shared(blkdim)
    acc = 0.0
    for k = pos..stride..numel(x) - 1
        acc += x[k]
    endfor
    part[blkpos] = acc
    syncthreads
    step = shr(blkdim, 1)
    while step > 0
        if blkpos < step
            part[blkpos] = part[blkpos] + part[blkpos + step]
        endif
        syncthreads
        step = shr(step, 1)
    endwhile
    if blkpos == 0
        y += part[0]
    endif
endfunction

reps = 7
n = 16777216
[blocks, threads] = [64, 256]
x = zeros(n)
parallel_do(n, x, make_data)

total = parallel_do([[1, blocks * threads], [1, threads]], x, blocks * threads, sum_kernel)
for r = 1..reps
    tic()
    total = parallel_do([[1, blocks * threads], [1, threads]], x, blocks * threads, sum_kernel)
    toc("rep")
endfor
print "checksum: ", total
