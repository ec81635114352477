% A run-time error inside an imported file is reported in that file, at its own line.
% ==
% error: import_error_lib\.q:3:9: error: index 5 is out of bounds
import "import_error_lib.q"
print second_of([1, 2])
