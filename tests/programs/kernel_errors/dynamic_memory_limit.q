% Dynamic memory in a kernel is limited to 32 KiB per allocation: 10000 scalars of
% 4 bytes are too many.
% ==
% error: (?s)dynamic_memory_limit\.q:6:5: error: \(parallel_do\) big_window - .*(32 KiB|32768).*line 6.*dynamic_memory_limit\.q:11:1: note: `big_window` was launched here
function [] = __kernel__ big_window(y : vec, n : int, pos : int)
    r = zeros(n)
    r[0] = pos
    y[pos] = r[0]
end
y = zeros(4)
parallel_do(4, y, 10000, big_window)
