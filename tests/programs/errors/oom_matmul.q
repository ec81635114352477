% A matrix product whose result no machine can hold (a column times a row of 2^46
% elements) is a located "out of memory" error, not an abort.
% ==
% error: oom_matmul\.q:7:5: error: .*out of (GPU )?memory
x = zeros(1048576, 1)
y = zeros(1, 67108864)
z = x * y
print "never printed"
