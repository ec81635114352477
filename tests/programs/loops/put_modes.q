% Writes outside an array in a loop that runs as a kernel follow the put modes, as on
% the host: without a modifier (and under 'safe, 'circular, 'mirror, 'clamped) they are
% ignored, so shifting a signal by a few places needs no bounds test.
% ==
% stdout {
% shifted: 0 0 0 0 4 4996 0
% wrapped: 0 0 0 4999 3
% ring: 4 0 1 4999 3
% }
n = 5000
x = zeros(n)
for i = 0..n-1
    x[i] = i
end
y = zeros(n)
for i = 0..n-1
    y[i + 3] = x[i]
end
print "shifted: ", y[0], " ", y[1], " ", y[2], " ", y[3], " ", y[7], " ", y[n-1], " ", sum(y) - sum(x[0..n-4])
w : vec'circular = zeros(n)
for i = 0..n-1
    w[i - 4] = x[i]
end
print "wrapped: ", w[0] - 4, " ", w[n-4], " ", w[n-3], " ", w[n-5], " ", w[3] - 4
r : vec'circular = x
z = zeros(n)
for i = 0..n-1
    z[i] = r[i + 4]
end
print "ring: ", z[0], " ", z[n-4], " ", z[n-3], " ", z[n-5], " ", z[3] - 4
