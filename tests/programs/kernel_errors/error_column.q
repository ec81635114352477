% An explicit kernel with two 'checked reads on one line: threads fail on the second
% read, and the error is located at that read (its column), on every tier, with the
% launch as a note.
% ==
% error: (?s)error_column\.q:8:23: error: \(parallel_do\) add_next - index 5 is out of bounds for dimension 0 of size 5.*error_column\.q:12:1: note: `add_next` was launched here
function [] = __kernel__ add_next(y : vec'unchecked, x : vec'checked, k : int, pos : int)
    a = 0
    y[pos] = x[pos] + x[pos + k]
end
x = [1, 2, 3, 4, 5]
y = zeros(5)
parallel_do(5, y, x, 1, add_next)
