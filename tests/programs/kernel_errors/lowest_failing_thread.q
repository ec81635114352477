% When several threads of a launch fail, the failure reported is that of the thread
% with the lowest linear position (row-major in the index space); a failing thread
% stops and the others run on. Here position 5 fails at the first assert and
% position 2 at the second: position 2's failure is reported, on every tier.
% ==
% error: (?s)lowest_failing_thread\.q:10:5: error: \(parallel_do\) two_checks - assertion failed: line 10.*lowest_failing_thread\.q:12:1: note: `two_checks` was launched here
function [] = __kernel__ two_checks(y : vec, pos : int)
    assert(pos != 5)
    y[pos] = 1
    assert(pos != 2)
end
parallel_do(8, zeros(8), two_checks)
