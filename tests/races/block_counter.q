% Planted race inside one block, shown by the random schedule's switches between the
% threads of a block: every thread adds one to a shared counter without an atomic
% update before the barrier, so a thread that reads the counter while another thread
% is between its read and its write loses that thread's update.
function [] = __kernel__ count_in_block(n : vec, pos : int, blkpos : int)
    c = shared_zeros(1)
    c[0] = c[0] + 1
    syncthreads
    if blkpos == 0
        n[0] = c[0]
    end
end

n = zeros(1)
parallel_do([[16], [16]], n, count_in_block)
print n[0]
