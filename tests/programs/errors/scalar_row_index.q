% An item of a row of scalars that reads outside its array is an error at that read,
% after the items before it were evaluated.
% ==
% stdout {
% 2
% }
% error: scalar_row_index\.q:10:24: error: index 5 is out of bounds for dimension 0 of size 2
q = [1, 2]
print q[1]
print [q[0], q[1] + 1, q[5]]
