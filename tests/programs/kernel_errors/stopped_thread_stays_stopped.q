% A thread that fails stops for the rest of the block, through every later barrier, while
% the others run on: thread 2 fails its assert in the first phase, so its element of `s`
% keeps the 2 it wrote there (the second phase clears only the elements of running
% threads), and thread 1, reading it in the third phase, indexes `c` out of range. Thread
% 1 is the lowest failing thread, so its error is the one reported. The second block's
% threads all run to the end (the block with no stopped thread).
% On CUDA the stopped thread still reaches the later barriers (they are block-uniform:
% `__syncthreads()`), with its stores skipped (codegen-c/cuda/stop.rs).
% ==
% error: (?s)stopped_thread_stays_stopped\.q:20:18: error: \(parallel_do\) t - index 2 is out of bounds for dimension 0 of size 2.*stopped_thread_stays_stopped\.q:25:1: note: `t` was launched here
function [] = __kernel__ t(y : vec, c : vec'checked, pos : int, blkpos : int, blkidx : int)
    s = shared(8)
    s[blkpos] = blkpos
    syncthreads
    assert(blkidx == 1 || blkpos != 2)
    syncthreads
    s[blkpos] = 0
    syncthreads
    if blkpos == 1
        y[pos] = c[s[2]]
    endif
    y[pos] = s[blkpos]
end
y = zeros(16)
parallel_do([[16], [8]], y, zeros(2), t)
print y
