% vec/mat/cube creation functions and their shapes and types; leading singleton
% dimensions stay (`zeros(1, 1, 4)` is a 1×1×4 cube), except that a constant dims
% literal [1, ..., 1, N] makes a vec of N (seed 002, decided when compiling).
% ==
% stdout {
% [1,5]
% vec
% [2,3]
% mat
% [2,3,4]
% cube
% [ [1,0,0],
%   [0,1,0],
%   [0,0,1] ]
% [0,0.25,0.5,0.75,1]
% [1,4]
% vec
% [1,1,4]
% cube
% [3,2]
% [4,2,3]
% [1,1,1,1]
% }
print size(zeros(5))
print type(zeros(5))
print size(ones(2, 3))
print type(ones(2, 3))
print size(zeros(2, 3, 4))
print type(zeros(2, 3, 4))
print eye(3)
print linspace(0, 1, 5)
v = zeros([1, 1, 4])
print size(v)
print type(v)
c = zeros(1, 1, 4)
print size(c)
print type(c)
print size(rand(3, 2))
A = rand(4, 2, 3)
print size(zeros(size(A)))
print ones(4)
