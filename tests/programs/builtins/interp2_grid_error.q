% interp2: a grid that does not match V is an error naming both sizes.
% ==
% error: interp2_grid_error\.q:4:7: error: interp2: the grid has 2 columns and 2 rows but V is of size \[2,3\]
print interp2([0, 1], [0, 1], [[1, 2, 3], [4, 5, 6]], 0.5, 0.5)
