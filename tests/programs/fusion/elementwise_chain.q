% Chains of element-wise operators and builtins over arrays: on `cpu` the host runs
% them, on `nvrtc` each expression is one fused kernel (--fuse-min 0); both must print
% the same (sums of f32 results agree to the printed digits).
% ==
% stdout {
% [0,0.5,1,1.5,2]
% [ [4,1,0],
%   [1,4,9] ]
% [1,0,1,0,1]
% [0,1,1,0,0]
% 65
% [2.5,5,7.5]
% [-1,-2,-3]
% [1,1,1]
% [0,2,0]
% [3,4.5,2]
% [1.4142135,1.7320508,2]
% }
x = [0, 1, 2, 3, 4]
print x / 2
M = [[-2, -1, 0], [1, 2, 3]]
print M.^2
print mod(x + 1, 2)
print (x > 0) && (x < 3)
print sum(x .* x + 2 * x + 3)
print 2.5 * [1, 2, 3]
print -[1, 2, 3]
print ![0, 0, 5] == [1, 1, 0]
print !([1, 0, 1] > 0) + ([1, 2, 3] == 2)
print max([1, 4.5, 2], [3, 2, 1]) - min([1, 0, 1], [0, 0, 0]) * 1
print sqrt(abs([-2, 3, 4]))
