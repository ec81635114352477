% import "file.q" makes the functions of a file next to the program available.
% ==
% stdout {
% 14
% hello from helper
% }
import "import_helper_lib.q"
print helper_double(7)
helper_greet()
