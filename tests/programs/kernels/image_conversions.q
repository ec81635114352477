% Issue 27 item 11's element-wise functions in kernel code and in whole-array
% expressions (fused where the backend fuses): sign, fix, im2double and im2uint8 (by
% the argument's type: uint8 / 255, uint16 / 65535, int16 shifted by 32768; reals kept;
% to uint8 rounding halves away from zero and saturating), double and single of
% arrays, on scalars and on register vectors. The kernels print what the host's
% builtins print.
% ==
% tolerance { 1e-5 }
% stdout {
% [-1,-1,0,1,1]
% [-2,-1,0,0,3]
% [0,0.2,1,0.027451,0.501961]
% [0,51,255,0,128]
% [0,1,0.015259] [0,0.500008,1]
% [0,255,4] [0,128,255]
% [ [0,0.2,1],
%   [1,0.2,0] ]
% [-5,-3,0,1,7]
% [0,0.4,2,0.054902,1.003922]
% [1,1,1,39,224]
% [1,1,1,1,1]
% }
function [] = __kernel__ k_sign(x : vec, y : vec, pos : int)
    y[pos] = sign(x[pos])
end
function [] = __kernel__ k_fix(x : vec, y : vec, pos : int)
    y[pos] = fix(x[pos])
end
function [] = __kernel__ k_u8(x : vec[uint8], y : vec, pos : int)
    y[pos] = im2double(x[pos])
end
function [] = __kernel__ k_to_u8(x : vec, y : vec[uint8], pos : int)
    y[pos] = im2uint8(x[pos])
end
function [] = __kernel__ k_u16(x : vec[uint16], y : vec, z : vec[uint8], pos : int)
    y[pos] = im2double(x[pos])
    z[pos] = im2uint8(x[pos])
end
function [] = __kernel__ k_i16(x : vec[int16], y : vec, z : vec[uint8], pos : int)
    y[pos] = im2double(x[pos])
    z[pos] = im2uint8(x[pos])
end
function [] = __kernel__ k_pixels(img : cube[uint8], out : mat, pos : int)
    v = im2double(img[pos, 0, 0..2])
    out[pos, 0..2] = v
end
x = [-2.5, -1.4, 0, 0.6, 3.5]
y = zeros(5)
parallel_do(5, x, y, k_sign)
print y
parallel_do(5, x, y, k_fix)
print y
u = uint8([0, 51, 255, 7, 128])
parallel_do(5, u, y, k_u8)
print y
v = vec[uint8](5)
parallel_do(5, [0, 0.2, 1.5, -1, 0.5], v, k_to_u8)
print v
y3 = zeros(3)
z3 = vec[uint8](3)
parallel_do(3, uint16([0, 65535, 1000]), y3, z3, k_u16)
w3 = zeros(3)
q3 = vec[uint8](3)
parallel_do(3, int16([-32768, 0, 32767]), w3, q3, k_i16)
print y3, " ", w3
print z3, " ", q3
img = cube[uint8](2, 1, 3)
img[0, 0, :] = uint8([0, 51, 255])
img[1, 0, :] = uint8([255, 51, 0])
out = zeros(2, 3)
parallel_do(2, img, out, k_pixels)
print out
print sign(x) + fix(x) * 2
print im2double(u) * 2
print im2uint8(x / 4) + uint8(1)
print double(u) / 255 * 0 + single(sign(abs(x) + 1))
