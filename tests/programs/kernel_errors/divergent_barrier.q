% A thread that skipped the barrier in an earlier iteration must not come back to it:
% here the threads waiting at it grow from one iteration to the next.
% Not on CUDA: the GPU cannot detect it (the program runs; the behaviour is undefined).
% ==
% backends { cpu nvrtc }
% error: (?s)divergent_barrier\.q:12:13: error: \(parallel_do\) growing - syncthreads at line 12 is reached by a thread that skipped an earlier barrier of its block.*divergent_barrier\.q:17:1: note: `growing` was launched here
function [] = __kernel__ growing(y : vec, blkpos : int)
    s = shared(8)
    s[blkpos] = blkpos
    for k = 0..3
        if blkpos < 2 + k
            syncthreads
        end
    end
    y[blkpos] = s[7 - blkpos]
end
parallel_do([[8], [8]], zeros(8), growing)
