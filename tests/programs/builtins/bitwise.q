% Bitwise functions and, or, xor, not, shl, shr on integers.
% ==
% stdout {
% 8 14 6
% -13
% 20 3
% [1,0,1]
% 5
% }
print and(12, 10), " ", or(12, 10), " ", xor(12, 10)
print not(12)
print shl(5, 2), " ", shr(13, 2)
print and([1, 2, 3], 1)
print or(1011b, 0100b) - 10
