% conv convolves vectors; a matrix is an error that points to conv2.
% ==
% error: conv_matrix_error\.q:4:7: error: conv: the first argument must be a vector, got a matrix of size \[2,2\] \(conv2 convolves matrices\)
print conv([[1, 2], [3, 4]], [1, 1])
