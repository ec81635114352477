% A thread that skips a barrier (under a condition on blkpos) may only run on to the
% end of the kernel: reaching a later barrier is an error at that barrier.
% Not on CUDA: the GPU cannot detect it (the program runs; the behaviour is undefined).
% ==
% backends { cpu nvrtc }
% error: (?s)barrier_in_branch\.q:11:5: error: \(parallel_do\) uneven - syncthreads at line 11 is reached by a thread that skipped an earlier barrier of its block.*barrier_in_branch\.q:15:1: note: `uneven` was launched here
function [] = __kernel__ uneven(x : vec, pos : int, blkpos : int)
    if blkpos < 4
        syncthreads
    end
    syncthreads
    x[pos] = 1
end
x = zeros(16)
parallel_do(16, x, uneven)
