% Host loops that cannot run in parallel but have a kernel form run as serial kernels
% (the compiled host tier): a recurrence whose variable widens from int to scalar, a
% `while` loop with a data-dependent exit, a search with `break`, `continue`, a user
% function called in the loop, int32 wrapping, nested loops over a small matrix and a
% loop that stays on the interpreter (it prints). Every tier gives the same answers.
% ==
% stdout {
% 10.110231 20
% 111 1
% 8 8
% 12
% 1.9980469
% -2147483296
% 5.8 4.26
% 0 1 2 3
% 4
% }
function y = half_plus(x)
    y = 0.5 * x + 1
end
function [] = bump(a : vec, i : int)
    a[i] = a[i] + i
end
s = 0
for i = 0..20
    s = 0.5 * s + mod(i, 7)
end
print s, " ", i
n = 27
steps = 0
while n != 1
    if mod(n, 2) == 0
        n = n / 2
    else
        n = 3 * n + 1
    end
    steps += 1
end
print steps, " ", n
found = -1
for j = 0..100
    if j * j > 50
        found = j
        break
    end
end
print found, " ", j
odd = 0
for k = 0..6
    if mod(k, 2) == 0
        continue
    end
    odd += k + 1
end
print odd
t = 0.0
for k = 1..10
    t = half_plus(t)
end
print t
x = int32(2147483000)
for q = 1..10
    x = x + 100
end
print x
A = zeros(3, 3)
for it = 1..5
    for r = 0..2
        for c = 0..2
            A[r, c] = 0.5 * A[r, c] + r + 0.1 * c + sqrt(floor(1.5))
        end
    end
end
print round(A[2, 0] * 10) / 10, " ", round(A[1, 2] * 100) / 100
v = zeros(4)
for k = 0..3
    bump(v, k)
end
print v[0], " ", v[1], " ", v[2], " ", v[3]
w = 0
while w < 4
    w += 1
end
print w
