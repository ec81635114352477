% Without a modifier, a host read outside the array is an error.
% ==
% error: read_default_host\.q:6:5: error: index 3 is out of bounds
A = [[1, 2], [3, 4]]
z = A[1, 1]
w = A[3, 0]
