% clamp, saturate, sign, abs, min and max of two arguments.
% ==
% stdout {
% 5 0 3
% 0 0.25 1
% -1 0 1
% [1,0,1]
% [3,5,4]
% [1,2,2]
% 2.5
% }
print clamp(7, 0, 5), " ", clamp(-2, 0, 5), " ", clamp(3, 0, 5)
print saturate(-1), " ", saturate(0.25), " ", saturate(4)
print sign(-3), " ", sign(0), " ", sign(2.5)
print abs([-1, 0, 1])
print max([3, 1, 4], [2, 5, 1]) + [0, 0, 0]
print min([1, 2, 3], 2)
print abs(-2.5)
