% An error inside a bundled module points at the module's line, then at the call.
% ==
% error: <blazar>/inttypes\.q:[0-9]+:[0-9]+: error: round: expected a number
import "inttypes.q"
print float_to_uint8("abc")
