% Two independent pipelines, then a statement that reads both: under
% `--devices sim:N` the pipelines start on different devices (nothing they read lives
% on a device yet), so the statement where they meet needs a copy between devices. A
% missing copy reads a stale or unwritten buffer and prints a wrong sum.
% ==
% stdout {
% 4096 20480
% 24576
% 6 8
% 8192
% }
n = 64
a = ones(n, n)
b = 2 * ones(n, n)
% pipeline 1: a -> a1 -> a2 (every element 1 -> 2 -> 1)
a1 = a + 1
a2 = a1 .* a1 - 3
% pipeline 2: b -> b1 -> b2 (every element 2 -> 6 -> 5)
b1 = b * 3
b2 = b1 - 1
print sum(a2), " ", sum(b2)
% they meet
c = a2 + b2 + 0
print sum(c)
print c[0, 0], " ", c[n - 1, n - 1] + 2
% and part again: a2 read on one device, written on another
d = c - b2 - 1
e = d + a2 * 0.5
print sum(e) * 4
