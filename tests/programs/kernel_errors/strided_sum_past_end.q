% A grid-stride sum (2 blocks of 96 threads, stride 192) whose loop runs past the end of
% its checked input (1000 elements, the loop to 1099): threads 40..139 read index 1000
% or above in their sixth iteration; the lowest, thread 40 (block 0), at index 1000,
% is the one reported, whatever order the native tier runs the threads' iterations in.
% ==
% error: (?s)strided_sum_past_end\.q:12:16: error: \(parallel_do\) strided_sum - index 1000 is out of bounds for dimension 0 of size 1000 .*strided_sum_past_end\.q:30:1: note: `strided_sum` was launched here
function [] = __kernel__ strided_sum(x : vec'checked, n : int, stride : int, bsum : vec'unchecked, _
                                     pos : int, blkpos : int, blkdim : int, blkidx : int)
    part = shared(blkdim)
    acc = 0.0
    for k = pos..stride..n - 1
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
        bsum[blkidx] = part[0]
    endif
endfunction

bsum = zeros(2)
parallel_do([[1, 192], [1, 96]], ones(1000), 1100, 192, bsum, strided_sum)
