% Ordered comparisons (< > <= >=) of complex values in kernels compare real parts, as
% host code does (the kernel's matrix, then the host's).
% ==
% stdout {
% [ [1,0,1,0],
%   [0,1,1,1],
%   [1,0,1,0] ]
% [ [1,0,1,0],
%   [0,1,1,1],
%   [1,0,1,0] ]
% }
function [] = __kernel__ order(x : cvec'checked, y : mat, pos : int)
    v = x[pos]
    y[pos, 0] = v < 1
    y[pos, 1] = v > 1i
    y[pos, 2] = v <= 2 - 5i
    y[pos, 3] = v >= 0.5
end
x = [1i, 2 - 1i, -3 + 4i]
y = zeros(3, 4)
parallel_do(3, x, y, order)
print y
h = zeros(3, 4)
for i = 0..2
    v = x[i]
    h[i, :] = [v < 1, v > 1i, v <= 2 - 5i, v >= 0.5]
end
print h
