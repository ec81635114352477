% MATLAB's integer conversions int8 .. uint64 follow one rule for every argument: reals
% round halves away from zero, then every value (real or int, scalar or array)
% saturates at the type's limits, NaN gives 0; on the host, in fused whole-array
% expressions (--fuse-min 0) and in kernels alike. int(x) stays Quasar's cast
% (truncation toward zero).
% Reference (NumPy): np.clip(np.sign(x) * np.floor(np.abs(x) + 0.5), lo, hi) with NaN
% set to 0, lo/hi from np.iinfo of the type.
% ==
% options { --fuse-min 0 }
% stdout {
% 255 255 [255,1] [255,1] 251 250
% [0,0,1,2,3,255,255,0] [-3,-2,-1,0,1,2,3,0]
% [-128,-128,127,127] [0,0,65535] [0,65535]
% [255,0,255,0]
% [0,0,1,2,3,255,255,0] [-3,-2,-1,0,1,2,3,0]
% [0,0,1,2,3,255,255,0] [-3,-2,-1,0,1,2,3,0] [255,0,127,-128]
% 2 -2 [2,-2]
% }
function [] = __kernel__ from_reals(x : vec, a : vec[uint8], b : vec[int16], pos : int)
    a[pos] = uint8(x[pos])
    b[pos] = int16(x[pos])
endfunction

function [] = __kernel__ from_ints(n : vec[int], c : vec[uint8], d : vec[int8], pos : int)
    c[pos] = uint8(n[pos])
    d[pos] = int8(n[pos])
endfunction

print uint8(300), " ", uint8(300.0), " ", uint8([300, 1]), " ", uint8([300.0, 1.0]), " ", uint8(250.6), " ", uint8(250.4)
x = [-2.5, -0.4, 0.5, 1.5, 2.5, 255.5, 1e10, 0 / 0]
y = [-2.5, -1.5, -0.5, 0.4, 0.5, 1.5, 2.5, 0 / 0]
print uint8(x), " ", int16(y)
print int8([-300, -129, 128, 300]), " ", uint16(int32([-1, 0, 70000])), " ", uint16(int64([-5, 100000]))
print uint8(int16([256, -1, 1000, -1000]))
% Fused: the conversion inside a whole-array expression.
print uint8(x * 1), " ", int16(y * 1)
a = uint8(zeros(8))
b = int16(zeros(8))
parallel_do(8, x, a, b, from_reals)
a2 = uint8(zeros(8))
b2 = int16(zeros(8))
parallel_do(8, y, a2, b2, from_reals)
n = int([300, -1, 127, -129])
c = uint8(zeros(4))
d = int8(zeros(4))
parallel_do(4, n, c, d, from_ints)
print a, " ", b2, " ", [c[0], c[1], d[2], d[3]]
print int(2.7), " ", int(-2.7), " ", int([2.7, -2.7])
