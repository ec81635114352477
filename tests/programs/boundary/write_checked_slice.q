% 'checked makes a write outside an error, in slices too; nothing is written.
% ==
% stdout {
% [0,0,0]
% }
% error: write_checked_slice\.q:9:1: error: index 3 is out of bounds for dimension 0 of size 3
v : vec'checked = zeros(3)
print v
v[1..3] = [1, 2, 3]
