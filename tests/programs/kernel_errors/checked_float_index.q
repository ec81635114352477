% An update of a 'checked array indexed by a real converted in the kernel reports the
% converted index exactly (1e10 converts to 2147483647, saturating, on every tier,
% though the native tier's fast conversion gives another value for it first).
% ==
% error: (?s)checked_float_index\.q:7:5: error: \(parallel_do\) count - index 2147483647 is out of bounds for dimension 0 of size 4: line 7.*checked_float_index\.q:10:1: note: `count` was launched here
function [] = __kernel__ count(x : vec, h : vec'checked, pos : int)
    h[int(x[pos])] += 1
endfunction
x = [0, 1, 1e10, -3]
parallel_do(numel(x), x, zeros(4), count)
