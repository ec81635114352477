% As stopped_thread_stays_stopped.q, with the barriers under a condition that depends on
% the thread (threads 6 and 7 skip them and run on to the end; on CUDA the kernel then
% uses the software barrier, and a failing thread leaves it as a `return` does): thread
% 2 fails its assert, so its element of `s` keeps the 2 it wrote, and thread 1, reading
% it after the next barriers, indexes `c` out of range. Thread 1 is the lowest failing
% thread, so its error is the one reported.
% ==
% error: (?s)stopped_thread_leaves_soft_barrier\.q:19:22: error: \(parallel_do\) t - index 2 is out of bounds for dimension 0 of size 2.*stopped_thread_leaves_soft_barrier\.q:25:1: note: `t` was launched here
function [] = __kernel__ t(y : vec, c : vec'checked, pos : int, blkpos : int, blkidx : int)
    s = shared(8)
    s[blkpos] = blkpos
    if blkpos < 6
        syncthreads
        assert(blkidx == 1 || blkpos != 2)
        syncthreads
        s[blkpos] = 0
        syncthreads
        if blkpos == 1
            y[pos] = c[s[2]]
        endif
    endif
    y[pos] = s[blkpos]
end
y = zeros(16)
parallel_do([[16], [8]], y, zeros(2), t)
print y
