% Sums of ints accumulate in 64 bits and give int64 (uint64 for uint64) on every
% path: the host, fused kernels (arrays past the fusion threshold, every array under
% `--fuse-min 0`), sums along a dimension and running sums, so a sum never wraps; the
% mean of ints is real; products wrap in their type as `*` does (issue 32, item 1).
% This is `int_sums.q` with fusion off: every reduction runs on the host.
% ==
% options { --fuse-min off }
% stdout {
% 100000
% 20000000000 int64
% 1000000 int64
% 76500000 int64 255
% -20000000 int64
% 2000000000000000 int64
% [300000000000000,300000000000000]
% 20000000000 int64
% 243 int
% }
x = int(zeros(200000)) + 100000
print mean(x)
s = sum(x)
print s, " ", type(s)
y = int(zeros(10)) + 100000
print sum(y), " ", type(sum(y))
u = uint8(zeros(300000)) + 255
print sum(u), " ", type(sum(u)), " ", mean(u)
print sum(int8(zeros(200000)) - 100), " ", type(sum(int8(zeros(200000)) - 100))
w = int64(zeros(200000)) + int64(10000000000)
print sum(w), " ", type(sum(w))
m = int(zeros(2, 150000)) + 2000000000
print sum(m, 1)
c = cumsum(x)
print c[199999], " ", type(c[199999])
p = prod(int(zeros(5)) + 3)
print p, " ", type(p)
