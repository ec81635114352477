% A loop body may call `__device__` functions: one that computes a value runs in the
% loop's kernel; one that writes into its array arguments keeps the loop serial (the
% dependence analysis cannot see those writes), and so does one whose parameters
% declare access modes (kernel code has one mode per array). An inner range the body
% changes keeps that level serial inside the kernel.
% ==
% stdout {
% 8192.667
% 2 16378
% 4096 4096
% 4096
% }
function y = __device__ smooth3(a : vec'clamped, i : int)
    y = (a[i - 1] + a[i] + a[i + 1]) / 3
end
function y = __device__ pair(a : vec, i : int)
    y = a[i] + a[i + 1]
end
function [] = __device__ shift_into(a : vec, i : int)
    a[i + 1] = a[i] + 1
end
n = 4096
x = zeros(n)
for i = 0..n - 1
    x[i] = 2 * i
end
s = zeros(n)
for i = 0..n - 1
    s[i] = smooth3(x, i)
end
print s[4095] + s[1] + 2 * s[0]
p = zeros(n - 1)
for i = 0..n - 2
    p[i] = pair(x, i)
end
print p[0], " ", p[n - 2]
c = zeros(n + 1)
for i = 0..n - 1
    shift_into(c, i)
end
print c[n], " ", c[n - 1] + 1
m = zeros(4096, 4)
for i = 0..4095
    k = 4
    for j = 0..k - 1
        m[i, j] = 1
    end
end
print sum(m[:, 0])
