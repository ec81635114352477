% A 'checked write outside the array is an error.
% ==
% error: write_checked\.q:7:1: error: index 3 is out of bounds
v : vec'checked = [1, 2, 3]
v[2] = 0
print v
v[3] = 1
