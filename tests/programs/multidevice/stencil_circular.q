% An element-wise step then a 5x3 stencil that wraps around the borders ('circular)
% over a 200x60 matrix, three times over: split by rows, the first and last bands read
% rows at the far end of the matrix, and every band reads two rows past each of its
% edges (its halo) from the bands beside it.
% ==
% options { --double }
% stdout {
% 637.3193
% 0.0491 0.0585
% 0.5421 0.5383
% 0.5087 0.5688
% }
function [] = __kernel__ blur(x : mat'circular, y : mat, pos : ivec2)
    s = 0.0
    for di = -2..2
        for dj = -1..1
            s += x[pos[0] + di, pos[1] + dj]
        endfor
    endfor
    y[pos] = s / 15
endfunction
h = 200
w = 60
x = zeros(h, w)
parallel_do(size(x), x, __kernel__ (a : mat, pos : ivec2) -> _
    a[pos] = mod(pos[0] * 7 + pos[1] * 3, 11) / 10)
y = zeros(h, w)
for it = 1..3
    x = x .* x
    parallel_do(size(x), x, y, blur)
    x = y + 0.01 * it
endfor
print sprintf("%.4f", sum(x))
print sprintf("%.4f %.4f", min(x), max(x))
print sprintf("%.4f %.4f", x[0, 0] * 10, x[h - 1, w - 1] * 10)
print sprintf("%.4f %.4f", x[1, 5] * 10, x[h - 2, 7] * 10)
