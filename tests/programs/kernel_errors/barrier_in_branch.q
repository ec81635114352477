% A barrier under a condition that depends on the thread is rejected before the kernel runs.
function [] = __kernel__ uneven(x : vec, pos : int, blkpos : int)
    if blkpos < 4
        syncthreads
    end
    x[pos] = 1
end
x = zeros(16)
parallel_do(16, x, uneven)
% ==
% error: barrier_in_branch\.q:4:9: error: kernel `uneven`: `syncthreads` at line 4 is inside control flow that depends on the thread
