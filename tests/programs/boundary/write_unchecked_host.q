% An 'unchecked write outside the array is an error in host code.
% ==
% error: write_unchecked_host\.q:5:1: error: index -2 is out of bounds
v : vec'unchecked = zeros(4)
v[-2] = 1
