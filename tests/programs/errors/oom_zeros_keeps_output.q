% An array that no machine can hold is a located "out of memory" error, and what was
% printed before it is kept (it used to abort with the output lost).
% ==
% stdout {
% start
% }
% error: oom_zeros_keeps_output\.q:9:5: error: .*(too large|out of (GPU )?memory)
print "start"
M = zeros(2147483647, 2147483647)
print M
