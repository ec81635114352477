% A failing assert inside a kernel is reported at the assert (its line is also in the
% message), with the launch as a located note.
% ==
% error: (?s)assert_failed\.q:7:5: error: \(parallel_do\) check_positive - assertion failed: line 7.*assert_failed\.q:10:1: note: `check_positive` was launched here
function [] = __kernel__ check_positive(x : vec, pos : int)
    v = x[pos]
    assert(v >= 0)
end
x = [1, 2, -3, 4]
parallel_do(numel(x), x, check_positive)
