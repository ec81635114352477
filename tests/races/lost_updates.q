% Planted race, shown by the random schedule's context switches: every thread adds one
% to a counter without an atomic update, so a switch between one thread's read and its
% write loses the updates other threads make in between.
function [] = __kernel__ count_all(n : vec, pos : int)
    n[0] = n[0] + 1
end

n = zeros(1)
parallel_do(16, n, count_all)
print n[0]
