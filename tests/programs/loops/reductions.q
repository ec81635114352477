% Accumulators become parallel reductions: scalar sums (`+=`, `-=`, `s = s + e`),
% products, minima and maxima, conditional counts, and elements at loop-invariant
% indices (`A[k] += e`); the value before the loop is kept, the type follows the host's
% rules, and int32 sums wrap as on the host. Each equals the same loop under `#pragma force_serial` (the data are
% integers, so no rounding differs).
% ==
% stdout {
% sum: 8386560 8386560 int
% real: 16773120 scalar
% minus: -8378368 -8378368
% nested: -4194304 -4194304
% count: 1366 1366
% min: -37 -37 max: 4058 4058
% prod: 16 16
% elems: [4096,0,8386560,-8386560] [4096,0,8386560,-8386560]
% }
n = 4096
v = zeros(n)
for i = 0..n - 1
    v[i] = i
end
w = int(v)

total = 0
for i = 0..n - 1
    total += w[i]
end
ts = 0
#pragma force_serial
for i = 0..n - 1
    ts += w[i]
end
print "sum: ", total, " ", ts, " ", type(total)

r = 0
for i = 0..n - 1
    r = r + 2 * v[i]
end
print "real: ", r, " ", type(r)

m = 8192
for i = 0..n - 1
    m -= w[i]
end
ms = 8192
#pragma force_serial
for i = 0..n - 1
    ms -= w[i]
end
print "minus: ", m, " ", ms

big = zeros(128, 256)
for a = 0..127
    for b = 0..255
        big[a, b] = a * 256 + b
    end
end
t2 = 0
for a = 0..127
    for b = 0..255
        t2 = t2 + int(big[a, b]) * 256
    end
end
t2s = 0
#pragma force_serial
for a = 0..127
    for b = 0..255
        t2s = t2s + int(big[a, b]) * 256
    end
end
print "nested: ", t2, " ", t2s

cnt = 0
for i = 0..n - 1
    if mod(i, 3) == 0
        cnt += 1
    end
end
cs = 0
#pragma force_serial
for i = 0..n - 1
    if mod(i, 3) == 0
        cs += 1
    end
end
print "count: ", cnt, " ", cs

lo = 1000
hi = -1000
for i = 0..n - 1
    lo = min(lo, mod(i * 37, 101) - 37)
    hi = max(w[i] - 37, hi)
end
los = 1000
his = -1000
#pragma force_serial
for i = 0..n - 1
    los = min(los, mod(i * 37, 101) - 37)
    his = max(w[i] - 37, his)
end
print "min: ", lo, " ", los, " max: ", hi, " ", his

p = 1
for i = 0..n - 1
    if mod(i, 1024) == 0
        p *= 2
    end
end
ps = 1
#pragma force_serial
for i = 0..n - 1
    if mod(i, 1024) == 0
        ps *= 2
    end
end
print "prod: ", p, " ", ps

acc = zeros(4)
k = 3
for i = 0..n - 1
    acc[0] += 1
    acc[2] += v[i]
    acc[k] -= v[i]
end
accs = zeros(4)
#pragma force_serial
for i = 0..n - 1
    accs[0] += 1
    accs[2] += v[i]
    accs[k] -= v[i]
end
print "elems: ", acc, " ", accs
