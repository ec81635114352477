% A negative size given to shared is an error naming the kernel and the line, worded as
% host code words it for zeros (not an empty array).
% ==
% stdout {
% [2,2,2,2]
% }
% error: (?s)negative_shared\.q:9:5: error: \(parallel_do\) tile - shared: dimensions must be non-negative integers, got -5: line 9.*negative_shared\.q:16:1: note: `tile` was launched here
function [] = __kernel__ tile(y : vec, n : int, pos : int, blkpos : int)
    s = shared(n)
    syncthreads
    y[pos] = numel(s)
end
y = zeros(4)
parallel_do(4, y, 2, tile)
print y
parallel_do(4, y, -5, tile)
