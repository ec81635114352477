% MATLAB's `end` inside an index is one error per use, with the Quasar spelling of the
% last element, and no cascade of errors after it.
% ==
% error: (?s)end_index\.q:6:9: error: `end` is not an index in Quasar: the last element of `x` is `x\[numel\(x\)-1\]`.*end_index\.q:7:7: error: `end` is not an index.*blazar: 2 errors found
x = [1, 2, 3]
print x[end]
y = x[end - 1]
