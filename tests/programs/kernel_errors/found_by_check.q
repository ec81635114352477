% A kernel that cannot be compiled is reported when the program is checked, before any
% host work runs: kernels whose parameters have declared types are compiled for them.
% ==
% error: (?s)found_by_check\.q:7:13: error: an array cannot be used as a value here in kernel code.*for its declared parameter types.*nothing was run
print "long host work that never starts"
function [] = __kernel__ k(x : mat, y : mat, pos : ivec2)
  y[pos] = (x + x)[pos]
end
x = ones(4, 4)
y = zeros(4, 4)
parallel_do(size(x), x, y, k)
