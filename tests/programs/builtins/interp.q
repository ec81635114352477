% interp1 and interp2: linear (the default) and nearest interpolation, NaN outside the
% samples, as MATLAB; grid positions are 0-based (interp1(v, xq) samples v at 0, 1, ...;
% interp2(V, Xq, Yq) has V[i, j] at x = j, y = i).
% Reference (NumPy/SciPy): np.interp(q, x, v, left=nan, right=nan);
% scipy.interpolate.interp1d(x, v, kind='nearest', bounds_error=False);
% scipy.interpolate.RegularGridInterpolator((rows, cols), V, method='linear' or
% 'nearest', bounds_error=False, fill_value=nan) at the points (yq, xq).
% ==
% options { --double }
% stdout {
% [NaN,1,1.5,0.333333,-2,0.333333,0.5,NaN]
% [NaN,1,1,-2,-2,0.5,0.5,NaN]
% [3,10] 5.5
% [1,3.25,4.65625,0.5,NaN]
% [1.5,3.375,0.5,3]
% [2,0.5]
% [ [1,2],
%   [3,7] ]
% }
function y = r6(x)
    y = round(x * 1e6) / 1e6
endfunction
x = [0, 1, 2.5, 4]
v = [1, 3, -2, 0.5]
q = [-0.5, 0, 0.25, 1.8, 2.5, 3.9, 4, 4.2]
print r6(interp1(x, v, q))
print r6(interp1(x, v, q, "nearest"))
print interp1([2, 4, 8, 16], [0.5, 2.25]), " ", interp1([0, 1], [5, 6], 0.5)
V = [[1, 2, 4], [3, 7, 0.5]]
print r6(interp2(V, [0, 0.5, 1.25, 2, 2.1], [0, 0.5, 0.75, 1, 0.5]))
print r6(interp2([0, 1, 3], [10, 20], V, [0.5, 2, 3, 1], [10, 15, 20, 12]))
print interp2(V, [1.4, 1.6], [0.4, 0.6], "nearest")
[X, Y] = meshgrid(0..1, 0..1)
print interp2(X, Y, V[:, 0..1], X, Y)
