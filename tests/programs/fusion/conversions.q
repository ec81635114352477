% Type conversions inside fused expressions follow the host: `int` truncates toward zero,
% MATLAB's int8 .. uint64 round halves away from zero; both saturate reals at the type
% limits (NaN gives 0), int8 .. uint64 also saturate ints, `float` gives the program
% precision; results then take part in int or real arithmetic.
% ==
% stdout {
% [-3,0,2,300,-2147483648,0]
% [0,1,3,255,0,0]
% [-7,1,6,127,-128,0]
% [1,2,4,301,1,1]
% [0.5,1,1.5]
% [-8,2,6,600,-20000000000,0]
% [0,255,255]
% [1,1,1,1,1,1]
% }
x = [-3.7, 0.5, 2.9, 300.2, -1e10, 0 / 0]
print int(x)
print uint8(x)
print int8(x * 2)
print uint16(x) + 1
print float(int32([1, 2, 3])) / 2
print int64(x) * 2
print uint8(int32([-1, 256, 257]))
print int(x) == [-3, 0, 2, 300, -2147483648, 0]
