% Type conversions inside fused expressions follow the host: reals truncate toward zero
% and saturate at the type limits (NaN gives 0), ints wrap like C casts, `float` gives
% the program precision; results then take part in int or real arithmetic.
% ==
% stdout {
% [-3,0,2,300,-2147483648,0]
% [0,0,2,255,0,0]
% [-7,1,5,127,-128,0]
% [1,1,3,301,1,1]
% [0.5,1,1.5]
% [-6,0,4,600,-20000000000,0]
% [255,0,1]
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
