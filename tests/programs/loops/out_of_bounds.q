% A read outside an array inside a loop that runs as a kernel is the host's error,
% located at the read (as the interpreter locates it), with a note that names the loop.
% ==
% error: out_of_bounds\.q:9:12: error: index 5000 is out of bounds for dimension 0 of size 5000(.|\n)*in the loop of line 8, which runs as a kernel
n = 5000
x = zeros(n + 1)
y = zeros(n)
for i = 0..n
    x[i] = y[i] + 1
end
print x[0]
