% bytes: 268435456
% Sum of 2^26 floats: 1024 blocks of 256 threads; each thread accumulates a strided
% part of the input (consecutive threads read consecutive elements), the block
% combines its partial sums by a tree in shared memory, and thread 0 adds the block's
% total to the kernel output `y` (atomic). The total comes back to the host in every
% repetition.

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

reps = 30
n = 67108864
[blocks, threads] = [1024, 256]
x = zeros(n)
parallel_do(n, x, make_data)

total = parallel_do([[1, blocks * threads], [1, threads]], x, blocks * threads, sum_kernel)
for r = 1..reps
    tic()
    total = parallel_do([[1, blocks * threads], [1, threads]], x, blocks * threads, sum_kernel)
    toc("rep")
endfor
print "checksum: ", total
