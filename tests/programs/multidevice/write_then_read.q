% A kernel writes an array on one device; the host changes one element; kernels on
% other devices read it. Each read must see the newest elements: the host's write
% makes every device copy stale, and a kernel's write makes the host copy and the
% other devices' copies stale.
% ==
% stdout {
% 0 1 2 3
% 100 1 2 3
% 200 2 4 6
% 200 2 4 6
% 1 0
% }
function [] = __kernel__ fill(x : vec, pos : int)
    x[pos] = pos
endfunction
function [] = __kernel__ twice(x : vec, y : vec, pos : int)
    y[pos] = 2 * x[pos]
endfunction
x = zeros(1000)
parallel_do(numel(x), x, fill)
print x[0], " ", x[1], " ", x[2], " ", x[3]
x[0] = 100
print x[0], " ", x[1], " ", x[2], " ", x[3]
y = zeros(1000)
parallel_do(numel(x), x, y, twice)
print y[0], " ", y[1], " ", y[2], " ", y[3]
% an unrelated launch moves the next one on, then y is read where it was not written
z = ones(1000) * 7
w = y + 0
print w[0], " ", w[1], " ", w[2], " ", w[3]
print w[999] == 1998, " ", sum(z) - 7000
