% An unknown access modifier is an error at the modifier.
% ==
% error: unknown_modifier\.q:4:9: error: unknown access modifier `'wrapped`
x : vec'wrapped = [1, 2]
