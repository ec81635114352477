% A local declared with a type converts every value stored in it as the host does, in
% kernels and in loops that become kernels: ints of any width wrap into the declared
% int type (`x += e` too), ints become reals in a `scalar` (issue 32, item 2). The
% explicit conversion `int8(200)` is MATLAB's and saturates (127), unlike a store.
% ==
% stdout {
% [44,255,60,3,-56,1]
% [44,255,60,3,-56,1]
% -121 -56
% -121 127
% 65530 0
% }
function [] = __kernel__ k(y : vec[int], pos : int)
    a : int8 = 300
    c : uint8 = -1
    a2 : int8 = a
    a2 += 16
    f : scalar = 3
    g : int8 = 100
    g = g + 100
    y[0] = a
    y[1] = c
    y[2] = a2
    y[3] = int(f)
    y[4] = g
    y[5] = int(f / 2)
end
function [] = h(y : vec[int], pos : int)
    a : int8 = 300
    c : uint8 = -1
    a2 : int8 = a
    a2 += 16
    f : scalar = 3
    g : int8 = 100
    g = g + 100
    y[0] = a
    y[1] = c
    y[2] = a2
    y[3] = int(f)
    y[4] = g
    y[5] = int(f / 2)
end
y = int(zeros(6))
parallel_do(1, y, k)
print y
y = int(zeros(6))
h(y, 0)
print y
% A loop of 5000 iterations runs as a kernel, one of 10 on the host.
n = 5000
z = int(zeros(n))
for p = 0..n - 1
    t : int8 = p
    z[p] = t
end
print z[n - 1], " ", z[200]
z = int(zeros(10))
for p = 4990..4999
    t : int8 = p
    z[p - 4990] = t
end
print z[9], " ", int8(200)
v = uint16(zeros(n))
for p = 0..n - 1
    q : uint16 = p - 6
    v[p] = q
end
print v[0], " ", v[6]
