% Fusion across statements (`passes::fuse_statements`, `interp/fuse/group.rs`): the
% three-statement pipeline `y = 255*(x/255).^0.45; t = y > 128; e = sum(t .* y)` is one
% region with no array for `y` or `t`; the four-statement one (gamma, a 3x3 blur as
% shifted slices, threshold, sum) keeps one intermediate, the gamma array the slices
% read; the blur as `circshift`s likewise. Each value equals the host's, element by
% element (and NumPy's: 2816, 592422, 2570, 2814).
% ==
% options { --fuse-min 0 }
% stdout {
% 2816 1
% 592422
% 2570 1
% 2814
% }
n = 40
m = 30
x = zeros(n, m, 3)
for i = 0..n-1
    for j = 0..m-1
        for k = 0..2
            x[i, j, k] = mod(i * 7 + j * 13 + k * 29, 256)
        endfor
    endfor
endfor
% The three-statement pipeline: one region, no array for y or t.
y = 255 * (x / 255) .^ 0.45
t = y > 128
e = sum(t .* y)
% The same, element by element on the host.
r = 0.0
c = 0
for i = 0..n-1
    for j = 0..m-1
        for k = 0..2
            v = 255 * (x[i, j, k] / 255) ^ 0.45
            if v > 128
                r = r + v
                c = c + 1
            endif
        endfor
    endfor
endfor
print c, " ", abs(e - r) < 1e-4 * r
% Integer-valued: exact.
a = x .* 2 + 1
b = a > 300
s = sum(b .* a)
print s
% Four statements: gamma, a 3x3 blur as shifted slices, threshold, sum (the gamma
% array is the one intermediate: slices read it).
g = 255 * (x / 255) .^ 0.45
bl = (g[0..n-3, 0..m-3, :] + g[1..n-2, 0..m-3, :] + g[2..n-1, 0..m-3, :] + g[0..n-3, 1..m-2, :] + g[1..n-2, 1..m-2, :] + g[2..n-1, 1..m-2, :] + g[0..n-3, 2..m-1, :] + g[1..n-2, 2..m-1, :] + g[2..n-1, 2..m-1, :]) / 9
th = bl > 128
e4 = sum(th .* bl)
r4 = 0.0
c4 = 0
for i = 1..n-2
    for j = 1..m-2
        for k = 0..2
            q = 0.0
            for di = -1..1
                for dj = -1..1
                    q = q + 255 * (x[i + di, j + dj, k] / 255) ^ 0.45
                endfor
            endfor
            q = q / 9
            if q > 128
                r4 = r4 + q
                c4 = c4 + 1
            endif
        endfor
    endfor
endfor
print c4, " ", abs(e4 - r4) < 1e-4 * r4
% The blur as array shifts (circshift): the gamma array is read once per shift.
h = 255 * (x / 255) .^ 0.45
sh = (circshift(h, [1, 0, 0]) + h + circshift(h, [-1, 0, 0])) / 3
ts = sh > 128
es = sum(ts)
print es
