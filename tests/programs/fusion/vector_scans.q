% Running sums and products of long vectors (`cumsum(v)`, `cumprod(v)`) run as two
% kernels over chunks: the chunks' totals, then each chunk scanned from the running
% total before it. Int running sums are int64 as on the host; real ones equal the host's.
% ==
% options { --fuse-min 0 }
% stdout {
% [-3,-5,-6,-6,-5,-3,0,-3,-5,-6] [-3,0,-3,-5,-6,-6,-5,-3,0,-3] [1,300000]
% 79999600000 400000
% 21875.469 10938.266
% 1
% }
v = mod(0..299999, 7) - 3
c = cumsum(v)
print c[0..9], " ", c[299990..299999], " ", size(c)
w = int(mod(0..199999, 5))
print sum(cumsum(w .* 2)), " ", cumsum(w)[199999]
x = (mod(0..99999, 13) - 6) / 8
y = cumsum(x .* x)
print y[99999], " ", y[50000]
p = cumprod(1 + 0 * (0..70000))
print p[70000]
