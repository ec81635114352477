% Writing to 'const data is an error at the assignment.
% ==
% error: const_write\.q:6:1: error: .*const
k : vec'const = [1, 2, 3]
print k[1]
k[1] = 5
