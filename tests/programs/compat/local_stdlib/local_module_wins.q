% A file next to the program wins over the bundled module of the same name.
% ==
% stdout {
% 101
% }
import "system.q"
print local_helper(1)
