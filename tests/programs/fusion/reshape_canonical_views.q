% `reshape` with scalar dims (the interpreter's direct view) keeps the dims MATLAB
% keeps, as the builtin does with a dims array: trailing unit dims drop down to two,
% leading ones stay, 1xN is a vec. A view of a view, a view back to the array's own
% shape, a vec view and views remade in a loop (each replacing the last) all share the
% elements: writes through any name are seen through the others.
% ==
% options { --fuse-min 0 }
% stdout {
% [1,12][12,1][1,1,12][1,1,1,12][3,4]
% [1,12][12,1][1,1,12][1,1,1,12][3,4]
% vec cube
% 1 -2 -2
% [ [-2,1,1],
%   [1,1,1],
%   [1,1,1],
%   [1,1,1] ]
% [ [0,1,2,3,4,5],
%   [6,7,8,9,10,11] ]
% [0,27,54,81,108,0,162,189,216,243,0,297]
% }
x = ones(2, 6)
one = 1
twelve = 12.0
print size(reshape(x, [1, 12])), size(reshape(x, [12, 1, 1])), size(reshape(x, [one, 1, twelve])), size(reshape(x, 1, 1, 1, 12)), size(reshape(x, [3, 4, 1]))
d1 = [1, 12]
d2 = [12, 1, 1]
d3 = [1, 1, 12]
d4 = [1, 1, 1, 12]
d5 = [3, 4, 1]
print size(reshape(x, d1)), size(reshape(x, d2)), size(reshape(x, d3)), size(reshape(x, d4)), size(reshape(x, d5))
print type(reshape(x, [1, 12])), " ", type(reshape(x, [1, 1, 12]))
v = reshape(x, [12])
w = reshape(v, [3, 4])
back = reshape(w, [2, 6])
w[0, 0] = -2
print v[1], " ", x[0, 0], " ", back[0, 0]
print reshape(back, [4, 3])
y = zeros(2, 6)
for k = 0..11
    r = reshape(y, [12, 1])
    r[k, 0] = k
endfor
print y
for k = 0..2
    r = reshape(y, [3, 4])
    r[k, k] = 0
    y = y * 3
endfor
print reshape(y, [12])
