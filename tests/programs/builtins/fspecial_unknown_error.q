% fspecial names the kernels it knows when given another.
% ==
% error: fspecial_unknown_error\.q:4:7: error: fspecial: unknown filter type "motion" \(expected "average", "gaussian", "laplacian", "sobel" or "disk"\)
print fspecial("motion", 9, 0)
