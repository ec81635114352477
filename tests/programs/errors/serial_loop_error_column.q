% A serial host loop (a recurrence: it cannot run in parallel) that the compiled host
% tier runs as a one-thread kernel, with two element reads on one line: the read that
% fails is the second, and the error names its column, as the interpreter does.
% ==
% options { --host-tier compiled }
% error: serial_loop_error_column\.q:14:23: error: index 5 is out of bounds for dimension 0 of size 5
x = [1, 2, 3, 4, 5]
y = zeros(5)
n = 5
k = 1
s = 0
for i = 1..n - 1
    s = s + x[i]
    y[i] = y[i - 1] + x[i + k]
end
print s
