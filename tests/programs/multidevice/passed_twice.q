% One array passed to two parameters that only read it: through the first each band
% reads its own rows, through the second row 0 (every band's device needs it). Split
% over devices by rows, a band's device must hold what both parameters read: it once
% got only what the first one reads, and read zeros for row 0.
% ==
% stdout {
% 1001 3502 6994 1349400
% }
function [] = __kernel__ g(a : mat, b : mat, y : mat, pos : ivec2)
    y[pos] = a[pos] + b[0, pos[1]] * 1000
endfunction
x = zeros(300, 4)
parallel_do(size(x), x, __kernel__ (q : mat, pos : ivec2) -> _
    q[pos] = pos[0] * 10 + pos[1] + 1)
y = zeros(300, 4)
parallel_do(size(x), x, x, y, g)
print sprintf("%.0f %.0f %.0f %.0f", y[0, 0], y[150, 1], y[299, 3], sum(y[:, 2]))
