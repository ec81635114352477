% inttypes.q: Blazar's bundled integer-types module. The integer types (int8 ... int64,
% uint8 ... uint64) and their array forms (vec[int8], cube[uint8], ...) are built into
% Blazar; this module adds the conversions between image data in integer and float form.
%
% uint8_to_float(x), uint16_to_float(x): the same values with element type scalar (no
%   rescaling: 255 stays 255).
% float_to_uint8(x), float_to_uint16(x): each value rounded to the nearest integer (halves
%   away from zero, as round and MATLAB's uint8) and saturated to [0, 255] / [0, 65535];
%   NaN becomes 0. The result has element type uint8 / uint16 (vec[uint8], cube[uint16],
%   ...), or is a uint8 / uint16 scalar for a scalar.

% uint8_to_float(x)
%
% The values of a uint8 array with element type scalar, not rescaled (255 stays 255).
%
% Example:
%     print uint8_to_float(uint8([0, 255])) / 2
% Output:
%     [0,127.5]
function y = uint8_to_float(x)
    y = float(x)
end

% uint16_to_float(x)
%
% The values of a uint16 array with element type scalar, not rescaled.
%
% Example:
%     print uint16_to_float(uint16([1000, 65535]))
% Output:
%     [1000,65535]
function y = uint16_to_float(x)
    y = float(x)
end

% float_to_uint8(x)
%
% Each value rounded to the nearest integer (halves away from zero) and saturated to
% 0..255, as uint8 elements; NaN becomes 0.
%
% Example:
%     print float_to_uint8([-3, 2.5, 300])
% Output:
%     [0,3,255]
function y = float_to_uint8(x)
    y = uint8(clamp(round(x), 0, 255))
end

% float_to_uint16(x)
%
% Each value rounded to the nearest integer and saturated to 0..65535, as uint16
% elements; NaN becomes 0.
%
% Example:
%     print float_to_uint16([-1, 1.5, 70000])
% Output:
%     [0,2,65535]
function y = float_to_uint16(x)
    y = uint16(clamp(round(x), 0, 65535))
end
