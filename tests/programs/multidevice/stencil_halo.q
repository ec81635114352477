% An element-wise step then a 3x3 stencil (clamped at the borders) over a 200x60
% matrix, three times over, then a sum: the stencil of each row reads the rows above
% and below it, so wherever the rows were made, every row the kernel reads must be
% current where it runs.
% ==
% options { --double }
% stdout {
% 646.6721
% 0.0424 0.0719
% 0.4777 0.6136
% }
function [] = __kernel__ blur(x : mat'clamped, y : mat, pos : ivec2)
    s = 0.0
    for di = -1..1
        for dj = -1..1
            s += x[pos[0] + di, pos[1] + dj]
        endfor
    endfor
    y[pos] = s / 9
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
