% conv names the shapes it knows when given another.
% ==
% error: conv_bad_shape_error\.q:4:7: error: conv: unknown shape "middle" \(expected "full", "same" or "valid"\)
print conv([1, 2, 3], [1, 1], "middle")
