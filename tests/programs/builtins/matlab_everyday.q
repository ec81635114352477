% Everyday MATLAB functions: length, fix, sign, strcmp, strcat, num2str, mat2str,
% sprintf/fprintf with MATLAB formats (arrays give their elements, the format recycles),
% logspace, linspace, meshgrid, unique and sort with 0-based indices, cumsum along each
% dimension of a cube, warning (to the error stream), isfield, double/single of arrays,
% im2double/im2uint8.
% Reference (NumPy): np.unique(x, return_index=True, return_inverse=True);
% np.argsort(-x, kind='stable'); np.cumsum(C, axis=d); np.logspace(a, b, n); np.fix;
% np.sign; '%.15g' % np.pi for mat2str.
% ==
% options { --double }
% stdout {
% 5 4 0 3 1
% [-2,0,3,-7] [-1,0,1] 2 -3
% 1 0 0 abc1.5
% 3.14159265358979 [1 -2.5;0.1 4] [1 2 3] 3.1416 7
% x=1;x=2;x=3;|1.50, 2.00
% a 1;b 2;
% |  7|
% [1,10,100] [0.1,0.316228,1,3.162278,10] [0,0.5,1]
% [ [0,1,2],
%   [0,1,2] ] [ [5,5,5],
%   [6,6,6] ]
% [1,2,3] [1,2,0] [2,0,1,2,0]
% [9,9,4,2] [1,3,2,0]
% [ [1,5,9],
%   [13,17,21] ] [ [6,8],
%   [10,12],
%   [14,16] ] [ [6,9],
%   [24,27] ]
% 1 0 0
% vec vec [1,2] scalar
% [0,0.2,1] vec [0,128,255] vec[uint8] [0,0,1,255]
% }
print length(zeros(3, 5)), " ", length([1, 2, 3, 4]), " ", length(zeros(0, 3)), " ", length("abc"), " ", length(7)
print fix([-2.5, 0.6, 3.9, -7]), " ", sign([-3, 0, 2.5]), " ", fix(2.9), " ", fix(-3.2)
print strcmp("abc", "abc"), " ", strcmp("abc", "abd"), " ", strcmp("1", 1), " ", strcat("abc", 1.5)
print mat2str(pi), " ", mat2str([[1, -2.5], [0.1, 4]]), " ", mat2str([1, 2, 3]), " ", mat2str(pi, 5), " ", num2str(7)
print sprintf("x=%d;", [1, 2, 3]), "|", sprintf("%.2f, %.2f", 1.5, 2)
fprintf("%s %d;", "a", 1, "b", 2)
fprintf("\n")
fprintf(1, "|%3d|\n", 7)
print logspace(0, 2, 3), " ", round(logspace(-1, 1, 5) * 1e6) / 1e6, " ", linspace(0, 1, 3)
[X, Y] = meshgrid(0..2, [5, 6])
print X, " ", Y
x = [3, 1, 2, 3, 1]
[u, first, back] = unique(x)
print u, " ", first, " ", back
[s, idx] = sort([2, 9, 4, 9], "descend")
print s, " ", idx
C = reshape(0..11, [2, 3, 2])
print cumsum(C, 2)[:, :, 1], " ", squeeze(cumsum(C, 0)[1, :, :]), " ", squeeze(cumsum(C, 1)[:, 2, :])
warning("this goes to stderr: %d", 5)
o = object()
o.name = "x"
print isfield(o, "name"), " ", isfield(o, "age"), " ", isfield(3, "name")
print type(double(int([1, 2]))), " ", type(single([1, 2])), " ", double(int([1, 2])), " ", type(double(3))
print im2double(uint8([0, 51, 255])), " ", type(im2double(uint8([0, 51, 255]))), " ", im2uint8([0, 0.5, 1.2]), " ", type(im2uint8([0.5])), " ", im2uint8(uint16([0, 128, 257, 65535]))
