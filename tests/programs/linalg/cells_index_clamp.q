% lincell (the leaves of a nested cell as one flat cell; the arrays are shared, not
% copied), find_index_min / find_index_max (linear index of the first extreme, NaN
% skipped) and clamp(x, hi) (clamp to [0, hi]).
% Reference: NumPy, np.argmin / np.nanargmin on the flattened array and
% np.clip(x, 0, hi).
% ==
% stdout {
% 4
% [1,2]
% [7,8,9]
% 42
% text
% 99
% 5
% 1
% 3
% [0,0.5,2,2]
% [ [0,3],
%   [3,1] ]
% 2
% }
a = [1, 2]
b = [7, 8, 9]
inner = cell(2)
inner[0] = b
inner[1] = 42
deep = cell(1)
deep[0] = "text"
c = cell(3)
c[0] = a
c[1] = inner
c[2] = deep
flat = lincell(c)
print numel(flat)
print flat[0]
print flat[1]
print flat[2]
print flat[3]
% the leaves share storage with the nested cell
v = flat[1]
v[0] = 99
print b[0]
print find_index_min([5, 3, 9, 1, 0/0, 4] + [0, 0, 0, 0, 0, -4])
print find_index_min([[4, 1], [2, 1]])
print find_index_max([[4, 1], [2, 8]])
print clamp([-1, 0.5, 2, 3], 2)
print clamp([[-5, 4], [3, 1]], 3)
print find_index_min([3, 0/0, 1])
