% A declaration with an unknown type is an error at the type name.
% ==
% error: unknown_type\.q:4:5: error: unknown type `vecc`
x : vecc = [1, 2]
