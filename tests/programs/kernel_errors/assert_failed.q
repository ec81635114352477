% A failing assert inside a kernel reports the kernel's name and the assert's line.
% ==
% error: assert_failed\.q:9:1: error: \(parallel_do\) check_positive - assertion failed: line 6
function [] = __kernel__ check_positive(x : vec, pos : int)
    v = x[pos]
    assert(v >= 0)
end
x = [1, 2, -3, 4]
parallel_do(numel(x), x, check_positive)
