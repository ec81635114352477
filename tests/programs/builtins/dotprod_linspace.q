% dotprod of two vectors and linspace endpoints and spacing.
% ==
% stdout {
% 32
% [1,1.5,2,2.5,3]
% [10,5,0]
% 3
% }
print dotprod([1, 2, 3], [4, 5, 6])
print linspace(1, 3, 5)
print linspace(10, 0, 3)
print numel(linspace(0, 1, 3))
