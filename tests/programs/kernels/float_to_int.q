% Float-to-integer conversions inside kernels follow host code on every backend: `int`
% toward zero, MATLAB's uint32 .. uint8 rounding halves away from zero, all saturating at
% the type's limits, and 0 for NaN (the GPU uses single conversion
% instructions for some pairs, so each pair is checked at the special values).
% ==
% stdout {
% [0,2147483647,-2147483648,2147483647,-2147483648,-1,2,0]
% [0,4294967295,0,3000000000,0,0,3,0]
% [0,9223372036854775807,-9223372036854775808,3000000000,-3000000000,-2,3,0]
% [0,18446744073709551615,0,3000000000,0,0,3,0]
% [0,255,0,255,0,0,3,0]
% [0,2147483647,-2147483648,2147483647,-2147483648,-1,2,0]
% }
function [] = __kernel__ convert(x : vec, a : vec[int], b : vec[uint32], c : vec[int64], _
                                 d : vec[uint64], e : vec[uint8], pos : int)
    v = x[pos]
    a[pos] = int(v)
    b[pos] = uint32(v)
    c[pos] = int64(v)
    d[pos] = uint64(v)
    e[pos] = uint8(v)
endfunction

function [] = __kernel__ convert_wide(x : vec, a : vec[int], pos : int)
    % Through a product: the value is computed in the kernel, not only loaded.
    a[pos] = int(x[pos] * 1.0)
endfunction

x = [0/0, 1/0, -1/0, 3e9, -3e9, -1.5, 2.7, 0]
a = int(zeros(8))
b = uint32(zeros(8))
c = int64(zeros(8))
d = uint64(zeros(8))
e = uint8(zeros(8))
parallel_do(numel(x), x, a, b, c, d, e, convert)
print a
print b
print c
print d
print e
a2 = int(zeros(8))
parallel_do(numel(x), x, a2, convert_wide)
print a2
