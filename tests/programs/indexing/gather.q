% Gathering elements of a vector with an integer index vector.
% ==
% stdout {
% [40,10,10,30]
% [2,4]
% }
v = [10, 20, 30, 40]
idx = [3, 0, 0, 2]
print v[idx]
w = [1, 2, 3, 4, 5]
print w[[1, 3]]
