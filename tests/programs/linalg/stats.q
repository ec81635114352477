% median, std and var over all elements and along a dimension (std and var normalise
% by N - 1). Reference: NumPy, np.median(x, axis), np.std(x, axis, ddof=1),
% np.var(x, axis, ddof=1).
% ==
% tolerance { 1e-5 }
% stdout {
% 4.5
% [2.5,6,6.5,4]
% [5.5,4,4]
% 12.1818
% 3.49025
% [6.33333,12.3333,16,10.3333]
% [2.51661,3.51188,4,3.21455]
% 2.5
% 3
% 0
% }
X = [[1, 9, 4, 7], [3, 5, 12, 2], [6, 2, 8, 1]]
print median(X)
print median([[1, 9, 4, 7], [4, 3, 9, 1]], 0)
print median(X, 1)
print var(X)
print std(X)
print var(X, 0)
print std(X, 0)
print median([4, 1, 3, 2])
print median([5, 3, 1])
print var(7)
