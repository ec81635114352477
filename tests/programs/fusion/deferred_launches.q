% A first run compiles a kernel per new statement. On the GPU, a launch whose kernel
% is still compiling waits in a queue while the host program goes on, so the next
% statements' compiles overlap with it. Every statement here is a new kernel, and the
% host reads and writes between them must still see program order: a host write to
% an array that a queued launch reads, a host read of a queued launch's result, fresh
% zeros, a kernel of the program, a matrix product and reductions.
% ==
% options { --fuse-min 0 }
% stdout {
% [2,3,4,5][4,6,8,10][9,1,2,3][11,3.4494898,4.8284273,6.1622777]
% [11,3.4494898,4.8284273,6.1622777][100,64,9,16][200,128,18,32][100,64,9,16][0,18,45.5,42]
% 9696245769926.375
% }
function [] = __kernel__ twice(y : vec'unchecked, x : vec'unchecked, pos : int)
    y[pos] = 2 * x[pos]
endfunction
x = [1, 2, 3, 4]
a = x + 1
b = a .* 2
x[0] = 10
c = x - 1
d = sqrt(b) + c
print a, b, c, d
e = zeros(4)
e = e + d
x[1] = b[2]
f = x .^ 2
y = zeros(4)
parallel_do(numel(f), y, f, twice)
g = y - f
h = abs(g - 100) ./ 2
print e, f, y, g, h
M = ones(128, 128) .* 0.5
N = M + 1
P = M * N
print P[0, 0], P[127, 127], sum(N), max(f - 1), mean(h)
