% conv2 takes vectors and matrices: a cube is a located error naming its size.
% ==
% error: conv2_cube_error\.q:4:7: error: conv2: the first argument must be a vector or a matrix, got an array of size \[2,3,4\]
print conv2(zeros(2, 3, 4), [1, 1])
