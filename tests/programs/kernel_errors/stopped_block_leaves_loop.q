% Every thread of the block fails in the second round of a loop whose condition reads
% shared memory: stopped threads skip their stores, so `s[0]` would stay 2 and the loop
% would never end for them; the block leaves it together (on CUDA the loop's barriers
% ask whether any thread still runs). Thread 0 is the lowest failing thread.
% ==
% error: (?s)stopped_block_leaves_loop\.q:14:9: error: \(parallel_do\) drain - assertion failed: line 14.*stopped_block_leaves_loop\.q:24:1: note: `drain` was launched here
function [] = __kernel__ drain(y : vec, pos : int, blkpos : int)
    s = shared(1)
    if blkpos == 0
        s[0] = 3
    endif
    syncthreads
    while s[0] > 0
        assert(s[0] != 2)
        syncthreads
        if blkpos == 0
            s[0] = s[0] - 1
        endif
        syncthreads
    endwhile
    y[pos] = 1
end
y = zeros(8)
parallel_do([[8], [8]], y, drain)
print y
