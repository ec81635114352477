% Host functions whose whole body has a kernel form run as one-thread kernels (the
% compiled host tier) when interpreted code calls them: an early `return` from inside a
% loop, `break` and `continue`, int32 wrapping, a `while` loop with a data-dependent
% exit, a call of another function, element writes into an array argument, several
% outputs, and a recursive function (which stays on the interpreter). Every tier gives
% the same answers.
% ==
% stdout {
% 4 -1
% 111
% -2147483296
% 64
% 2
% 3 6
% 1 9
% 3628800
% }
function i = find_first(a : vec, t)
    i = -1
    for k = 0..numel(a) - 1
        if a[k] == t
            i = k
            return
        end
    end
end
function n = collatz(x)
    n = 0
    while x != 1
        if mod(x, 2) == 0
            x = x / 2
        else
            x = 3 * x + 1
        end
        n += 1
    end
end
function y = wrap(x)
    y = x
    for q = 1..10
        y = y + 100
    end
end
function s = odd_sum(m : int)
    s = 0
    for k = 0..m
        if mod(k, 2) == 0
            continue
        end
        if k > 15
            break
        end
        s += k
    end
end
function y = half_plus(x)
    y = 0.5 * x + 1
end
function y = twice(x)
    y = half_plus(half_plus(x))
end
function [] = prefix_sum(a : vec)
    for k = 1..numel(a) - 1
        a[k] = a[k] + a[k - 1]
    end
end
function [lo, hi] = bounds(a : vec)
    lo = a[0]
    hi = a[0]
    for k = 1..numel(a) - 1
        if a[k] < lo
            lo = a[k]
        end
        if a[k] > hi
            hi = a[k]
        end
    end
end
function y = fact(n : int)
    if n <= 1
        y = 1
    else
        y = n * fact(n - 1)
    end
end
v = [3, 1, 4, 1, 5, 9, 2, 6]
print find_first(v, 5), " ", find_first(v, 7)
print collatz(27)
print wrap(int32(2147483000))
print odd_sum(100)
print twice(2)
prefix_sum(v)
print v[0], " ", v[7]
[lo, hi] = bounds(v)
print lo, " ", hi
print fact(10)
