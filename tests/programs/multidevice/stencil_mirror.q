% A stencil that reads 200 rows back with 'mirror boundaries over 300 rows: split by
% rows (sim2, sim3), the first band's reads before row 0 reflect to rows 1..200, far
% outside the band and its halo (7 rows after it). A band whose reads leave the array
% needs the rows they reflect to: it once read zeros there instead.
% ==
% stdout {
% 0: 2000070 2001071 2002072 2003073
% 1: 1990080 1991081 1992082 1993083
% 99: 1011060 1012061 1013062 1014063
% 100: 1001070 1002071 1003072 1004073
% 150: 501570 502571 503572 504573
% 199: 12060 13061 14062 15063
% 200: 2070 3071 4072 5073
% 298: 982940 983941 984942 985943
% 299: 992930 993931 994932 995933
% }
function [] = __kernel__ far(x : mat'mirror, y : mat, pos : ivec2)
    y[pos] = x[pos[0] - 200, pos[1]] * 1000 + x[pos[0] + 7, pos[1]]
endfunction
x = zeros(300, 4)
parallel_do(size(x), x, __kernel__ (a : mat, pos : ivec2) -> _
    a[pos] = pos[0] * 10 + pos[1])
y = zeros(300, 4)
parallel_do(size(x), x, y, far)
for r = [0, 1, 99, 100, 150, 199, 200, 298, 299]
    print sprintf("%d: %.0f %.0f %.0f %.0f", r, y[r, 0], y[r, 1], y[r, 2], y[r, 3])
endfor
