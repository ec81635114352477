% Control flow in kernel code: repeat/until with continue, labelled break out of
% nested loops, while, early return from a __device__ function, if/elseif chains and
% the ternary operator. The same __device__ function is also called from host code
% (interpreted there), and both must agree for every input.
% ==
% stdout {
% [1204,1304,1409,1509,1616,1716,1825,1925]
% [0,1,1,3,-1]
% 1
% }
function s = __device__ mixed(p : int)
    s = 0
    k = 0
    repeat
        k += 1
        if mod(k, 2) == 0
            continue
        end
        s += k
    until k >= p + 3
    outer:
    for i = 0..10
        for j = 0..10
            if i * j > p
                break outer
            end
            s += 100
        end
    end
end

function y = __device__ first_over(x : vec, t : scalar)
    y = -1
    i = 0
    while i < numel(x)
        if x[i] > t
            y = i
            return
        end
        i += 1
    end
end

function c = __device__ classify(v : scalar)
    if v < 0
        c = -1
    elseif v == 0
        c = 0
    elseif v < 10
        c = v > 5 ? 2 : 1
    else
        c = 3
    end
end

n = 8
r = zeros(n)
parallel_do(n, r, __kernel__ (r : vec, pos : int) -> r[pos] = mixed(pos))
print r
ok = 1
for p = 0..n - 1
    ok = ok && r[p] == mixed(p)
end
v = [1, 5, 2, 8, 3]
f = zeros(5)
parallel_do(5, v, f, __kernel__ (v : vec, f : vec, pos : int) -> f[pos] = first_over(v, 2 * pos))
print f
for p = 0..4
    ok = ok && f[p] == first_over(v, 2 * p)
end
samples = [-3, 0, 0.5, 5, 6, 9.5, 10, 42]
cl = zeros(8)
parallel_do(8, samples, cl, __kernel__ (x : vec, c : vec, pos : int) -> c[pos] = classify(x[pos]))
for p = 0..7
    ok = ok && cl[p] == classify(samples[p])
end
print ok && sum(cl) == -1 + 0 + 1 + 1 + 2 + 2 + 3 + 3
