% Loops whose iterations write their own elements run as kernels (one thread per
% iteration, up to three levels as dimensions); each result equals the same loop kept
% serial with `#pragma force_serial`.
% ==
% stdout {
% 2d: 1 1 251
% 3d: 1 112
% step: 1 4096 0
% down: 1 0 8191
% rows: 1 32640
% wave: 1 2080
% after: 63 127
% empty: 0
% }
function r = same(a, b)
    r = sum(a == b) == numel(a)
end
x = zeros(64, 128)
for m = 0..63
    for n = 0..127
        x[m, n] = m + 2 * n - 3
    end
end
y = zeros(64, 128)
for m = 0..size(x, 0) - 1
    for n = 0..size(x, 1) - 1
        y[m, n] = 2 * x[m, n] + 1
    end
end
ys = zeros(64, 128)
#pragma force_serial
for m = 0..63
    for n = 0..127
        ys[m, n] = 2 * x[m, n] + 1
    end
end
print "2d: ", same(y, ys), " ", sum(y == ys) == numel(y), " ", max(x[0, :])

c = zeros(8, 16, 32)
for a = 0..7
    for b = 0..15
        for d = 0..31
            c[a, b, d] = a * 100 + b - d
        end
    end
end
cs = zeros(8, 16, 32)
#pragma force_serial
for a = 0..7
    for b = 0..15
        for d = 0..31
            cs[a, b, d] = a * 100 + b - d
        end
    end
end
print "3d: ", same(c, cs), " ", c[1, 12, 0]

% A step and an offset start: every third element from 2.
s = zeros(3 * 4096 + 2)
for i = 2..3..numel(s) - 1
    s[i] = (i - 2) / 3 + 1
end
ss = zeros(3 * 4096 + 2)
#pragma force_serial
for i = 2..3..numel(ss) - 1
    ss[i] = (i - 2) / 3 + 1
end
print "step: ", same(s, ss), " ", s[12287], " ", s[12289]

% A descending range.
r = zeros(8192)
for i = 8191..-1..0
    r[i] = 8191 - i
end
print "down: ", same(r, 8191 - (0..8191)), " ", r[8191], " ", r[0]

% An inner loop runs inside each thread: row sums, with a private accumulator.
function out = rowsums(a)
    out = zeros(size(a, 0))
    for i = 0..size(a, 0) - 1
        acc = 0
        for j = 0..size(a, 1) - 1
            acc = acc + a[i, j]
        end
        out[i] = acc
    end
end
g = zeros(4096, 256)
for i = 0..4095
    for j = 0..255
        g[i, j] = j
    end
end
rs = rowsums(g)
print "rows: ", same(rs, 32640), " ", rs[4095]

% The outer level is parallel, the inner one carries a value: it stays in the thread.
w = zeros(4096, 64)
for i = 0..4095
    for j = 1..63
        w[i, j] = w[i, j - 1] + j
    end
end
print "wave: ", same(w[:, 63], 2016 + 0 * w[:, 63]), " ", w[5, 63] + 64

% The loop variables keep their last values, as after a serial loop.
for m = 0..63
    for n = 0..127
        x[m, n] = 0
    end
end
print "after: ", m, " ", n

% A loop that runs no iteration does nothing.
e = zeros(5)
for i = 10..9
    e[i] = 1
end
print "empty: ", sum(e)
