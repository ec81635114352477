% Imports of the standard library resolve to Blazar's bundled modules when no file of
% that name is next to the program; a .NET plugin import only warns.
% ==
% stdout {
% [1,2]
% 1
% }
import "system.q"
import "inttypes.q"
import "Quasar.UI.dll"
x : matrix_type = [1, 2]
print x
print type(int8(3), "int8")
