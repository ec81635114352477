% polyfit needs more points than the degree.
% ==
% error: polyfit_points_error\.q:4:7: error: polyfit: a degree-3 fit needs at least 4 points, got 2
print polyfit([0, 1], [1, 2], 3)
