% A loop written 1-based, as in MATLAB, runs one past the end: the error says that
% indices start at 0 and how the loop is written. (On CUDA, where the loop may run as a
% kernel, a kernel's error is located at its statement: column 5.)
% ==
% error: matlab_one_based_loop\.q:10:(5|10): error: index 3 is out of bounds for dimension 0 of size 3 \(indices start at 0: the last is 2, and a loop over the dimension is `for i = 0\.\.2`\)
x = [1, 2, 3]
s = 0
n = numel(x)
for i = 1..n
    s += x[i]
end
print s
