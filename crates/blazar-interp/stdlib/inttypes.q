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

function y = uint8_to_float(x)
    y = float(x)
end

function y = uint16_to_float(x)
    y = float(x)
end

function y = float_to_uint8(x)
    y = uint8(clamp(round(x), 0, 255))
end

function y = float_to_uint16(x)
    y = uint16(clamp(round(x), 0, 65535))
end
