% inttypes.q: float_to_uint8 / float_to_uint16 round halves away from zero, saturate and
% send NaN to 0; uint8_to_float / uint16_to_float keep the values with scalar elements;
% cube[uint8] and mat[uint16] variables take the results.
% Reference: NumPy, np.clip(np.round-half-away(x), 0, 255) written as
% np.clip(np.sign(x) * np.floor(np.abs(x) + 0.5), 0, 255) with NaN set to 0.
% ==
% stdout {
% [0,1,1,3,255,255,255,0,255,0] vec[uint8]
% [0,35001,65535] vec[uint16]
% cube[uint8] [ [10,21],
%   [255,255] ]
% cube [ [10,21],
%   [255,255] ] 127.5
% cube [ [10400,20600],
%   [65535,65535] ]
% 128 uint8 scalar
% [ [4,4],
%   [4,4] ]
% }
import "inttypes.q"
x = [-3.2, 0.5, 1.49, 2.5, 254.5, 255.4, 300, 0/0, 1/0, -1/0]
a = float_to_uint8(x)
print a, " ", type(a)
b = float_to_uint16(70000 * [-1, 0.5, 1] + [0, 0.5, 0])
print b, " ", type(b)
img = zeros(2, 2, 3)
img[:, :, 1] = [[10.4, 20.6], [255, 256]]
c : cube[uint8] = float_to_uint8(img)
print type(c), " ", c[:, :, 1]
d = uint8_to_float(c)
print type(d), " ", d[:, :, 1], " ", d[1,1,1] / 2
e = uint16_to_float(float_to_uint16(img * 1000))
print type(e), " ", e[:, :, 1]
print float_to_uint8(127.5), " ", type(float_to_uint8(127.5)), " ", type(uint8_to_float(uint8(7)))
m : mat[uint16] = float_to_uint16(ones(2,2) * 3.7)
print m
