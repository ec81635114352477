% interp1 needs strictly increasing sample points.
% ==
% error: interp1_unsorted_error\.q:4:7: error: interp1: the sample points must be strictly increasing
print interp1([0, 2, 1], [5, 6, 7], 0.5)
