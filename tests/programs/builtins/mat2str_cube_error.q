% mat2str writes vectors and matrices; a cube is an error naming its size.
% ==
% error: mat2str_cube_error\.q:4:7: error: mat2str: expected a vector or a matrix, got an array of size \[2,2,2\]
print mat2str(zeros(2, 2, 2))
