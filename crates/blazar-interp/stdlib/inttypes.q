% inttypes.q: Blazar's bundled integer-types module. The integer types (int8 ... int64,
% uint8 ... uint64) and their array forms (vec[int8], mat[uint16], ...) are built into
% Blazar, so importing this module adds nothing; it exists so that programs importing it
% run unmodified.
