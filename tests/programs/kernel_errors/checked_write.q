% A 'checked write outside the array inside a kernel is an error.
% ==
% error: (?s)checked_write\.q:5:5: error: \(parallel_do\) spill - .*out of bounds.*line 5.*checked_write\.q:7:1: note: `spill` was launched here
function [] = __kernel__ spill(y : vec'checked, pos : int)
    y[pos + 2] = pos
end
parallel_do(4, zeros(4), spill)
