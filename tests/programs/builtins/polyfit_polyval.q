% polyfit: least-squares polynomial coefficients, highest power first; polyval: the
% polynomial at each element (keeping the shape).
% Reference (NumPy): np.polyfit(x, y, n); np.polyval(p, x).
% ==
% options { --double }
% stdout {
% [1.010714,0.926429,1.135714]
% [1.851607,43.08]
% [5.98,-2.233333]
% [ [3,2],
%   [3,6] ]
% [1,1,1] 7
% }
function y = r6(x)
    y = round(x * 1e6) / 1e6
endfunction
x = [0, 1, 2, 3, 4, 5]
y = [1.2, 2.9, 7.1, 13.2, 20.8, 31.1]
p = polyfit(x, y, 2)
print r6(p)
print r6(polyval(p, [0.5, 6]))
print r6(polyfit(x, y, 1))
print polyval([1, -2, 3], [[0, 1], [2, 3]])
print r6(polyfit([0, 1, 2], [1, 3, 7], 2)), " ", polyval([1, 1, 1], 2)
