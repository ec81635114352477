% Shifts mean the same in host code and in kernels, on every backend, whatever the
% count (each kernel result is printed after the host's): a negative count shifts the
% other way; a count of the type's width or more shifts every bit out (0, and -1 for shr
% of a negative value); shr is arithmetic on signed types; results wrap to the type.
% ==
% stdout {
% [0,0,8,-1,-2147483648,-4,0,-2147483648,1,64,0,0]
% [0,0,8,-1,-2147483648,-4,0,-2147483648,1,64,0,0]
% [0,0,8,-1,-2147483648,-4,0,-2147483648,1,64,0,0]
% [144,0,1,0,0,0]
% [144,0,1,0,0,0]
% [1099511627776,0,-1,-3,4611686018427387904,0]
% [1099511627776,0,-1,-3,4611686018427387904,0]
% }
function [] = __kernel__ shifts(a : vec[int], n : vec[int], op : vec[int], y : vec[int], pos : int)
    y[pos] = op[pos] == 0 ? shl(a[pos], n[pos]) : shr(a[pos], n[pos])
end

function [] = __kernel__ constant_shifts(y : vec[int], pos : int)
    % Counts known when the kernel is compiled.
    c = [shl(1, -1), shl(1, 33), shr(1, -3), shr(-8, 40), shl(1, 31), shr(-8, 1), _
         shl(-1, 32), shr(-1, -31), shl(1, 0), shl(1, 6), shr(7, 64), shr(-2147483647 - 1, -1)]
    y[pos] = c[pos]
end

function [] = __kernel__ narrow(a : vec[uint8], n : vec[uint8], op : vec[int], y : vec[uint8], pos : int)
    y[pos] = op[pos] == 0 ? shl(a[pos], n[pos]) : shr(a[pos], n[pos])
end

function [] = __kernel__ wide(a : vec[int64], n : vec[int64], y : vec[int64], pos : int)
    y[pos] = shl(a[pos], n[pos])
end

a = int([1, 1, 1, -8, 1, -8, -1, -1, 1, 1, 7, 0])
a[11] = -2147483647 - 1
n = [-1, 33, -3, 40, 31, 1, 32, -31, 0, 6, 64, -1]
op = [0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 1]
host = int(zeros(12))
for i = 0..11
    host[i] = op[i] == 0 ? shl(a[i], n[i]) : shr(a[i], n[i])
end
print host
y = int(zeros(12))
parallel_do(12, a, n, op, y, shifts)
print y
parallel_do(12, y, constant_shifts)
print y

a8 = uint8([200, 200, 200, 200, 255, 1])
n8 = uint8([1, 9, 7, 8, 8, 255])
op8 = [0, 0, 1, 1, 0, 0]
h8 = uint8(zeros(6))
for i = 0..5
    h8[i] = op8[i] == 0 ? shl(a8[i], n8[i]) : shr(a8[i], n8[i])
end
print h8
y8 = uint8(zeros(6))
parallel_do(6, a8, n8, op8, y8, narrow)
print y8

a64 = int64([1, 1, -1, -5, 1, 3])
n64 = int64([40, 64, -70, -1, 62, -64])
h64 = int64(zeros(6))
for i = 0..5
    h64[i] = shl(a64[i], n64[i])
end
print h64
y64 = int64(zeros(6))
parallel_do(6, a64, n64, y64, wide)
print y64
