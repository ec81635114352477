% An operation whose result no machine can hold (2^46 elements, broadcast from a
% column and a row) is a located "out of memory" error, not an abort.
% ==
% error: oom_broadcast\.q:9:5: error: .*out of (GPU )?memory
x = zeros(1048576, 1)
y = zeros(1, 67108864)
print size(x), size(y)
print "before"
z = x + y
print "never printed"
