% mod has the sign of the dividend; periodize is never negative; frac(x) = x - floor(x).
% ==
% stdout {
% -1 1 1 -1
% 2 1 0 2
% 0.25 0.75
% [1,2,0,1]
% 1.5
% }
print mod(-7, 3), " ", mod(7, 3), " ", mod(7, -3), " ", mod(-7, -3)
print periodize(-7, 3), " ", periodize(7, 3), " ", periodize(-6, 3), " ", periodize(-1, 3)
print frac(2.25), " ", frac(-2.25)
print periodize([-5, -4, -3, -2], 3)
print mod(5.5, 2)
