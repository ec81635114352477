% When an imported file defines `main` too, the program's own `main` runs, and no other.
% ==
% stdout {
% library loaded
% 6
% program main
% }
import "several_mains_lib.q"
function [] = main()
  print "program main"
end
print triple(2)
