% isnan, isinf and isfinite, element-wise; NaN and Inf print as such.
% ==
% stdout {
% 1 0 0
% 0 1 0
% 0 0 1
% [0,1,0,1]
% Inf -Inf NaN
% }
z = 0
n = 0 / z
i = 1 / z
print isnan(n), " ", isnan(i), " ", isnan(1)
print isinf(n), " ", isinf(i), " ", isinf(1)
print isfinite(n), " ", isfinite(i), " ", isfinite(1)
print isinf([1, i, n, -i])
print i, " ", -i, " ", n
