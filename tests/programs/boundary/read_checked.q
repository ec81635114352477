% 'checked reads inside the array work; a read outside is an error at the index expression.
% ==
% error: read_checked\.q:8:7: error: index 4 is out of bounds
x : vec'checked = [1, 2, 3, 4]
print x[3]
x[0] = 5
print x[0]
print x[4]
