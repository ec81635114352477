% A `main` defined only in an imported file does not run: only the program's own does.
% ==
% stdout {
% library loaded
% 9
% }
import "several_mains_lib.q"
print triple(3)
