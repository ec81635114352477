% Reshaping a view to another number of elements is a located error naming both
% shapes (the view's, not its array's); nothing is assigned.
% ==
% error: reshape_view_count\.q:8:5: error: reshape: cannot reshape 4x3 \(12 elements\) to 5x2 \(10 elements\)
x = ones(2, 6)
v = reshape(x, [4, 3])
w = v
w = reshape(v, [5, 2])
