% floor, ceil, round (half away from zero) and int truncation.
% ==
% stdout {
% -3 3 -2 3
% 2 -3
% 3 -2
% [-2,-1,1,2]
% 3 -3
% }
print round(-2.5), " ", round(2.5), " ", round(-1.5), " ", round(2.6)
print floor(2.7), " ", floor(-2.1)
print ceil(2.1), " ", ceil(-2.9)
print round([-1.7, -0.5, 0.5, 1.5])
print int(3.99), " ", int(-3.99)
