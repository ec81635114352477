% Recursive host functions with loops inside, which the C++ tier compiles whole (real
% calls whose loops and calls spend the run's step budget) and other tiers leave to
% the interpreter: a sum with a `for` around the call of itself, a search whose
% `while` returns early, mutual recursion through a function with a loop (`continue`
% and `break`), int32 wrapping inside the recursion, a loop that makes the calls.
% ==
% stdout {
% 4960
% 71
% 90
% -5094045
% 924
% }
function y = tri_sum(n : int)
    y = 0
    if n <= 0
        return
    end
    for k = 1..n
        y += k
        if y > 100000
            break
        end
    end
    y += tri_sum(n - 1)
end
function y = first_square_over(lo : int, hi : int, t : int)
    y = -1
    k = lo
    while k <= hi
        if k * k > t
            y = k
            return
        end
        k += 1
    end
    if hi < 1000
        y = first_square_over(hi + 1, 2 * hi + 1, t)
    end
end
function y = ping(n : int)
    y = n <= 0 ? 0 : 1 + pong(n - 1)
end
function y = pong(n : int)
    y = 0
    for k = 0..n - 1
        if mod(k, 3) == 2
            continue
        end
        y += k
        if y > 50
            break
        end
    end
    y += ping(n - 1)
end
function h = wrap_hash(n : int)
    h = int(n)
    for k = 1..3
        h = h * 31 + 2147483000
    end
    if n > 0
        h += wrap_hash(n - 1)
    end
end
function c = count_paths(r : int, c0 : int)
    c = 0
    if r == 0 || c0 == 0
        c = 1
        return
    end
    for step = 0..1
        if step == 0
            c += count_paths(r - 1, c0)
        else
            c += count_paths(r, c0 - 1)
        end
    end
end
print tri_sum(30)
print first_square_over(1, 3, 5000)
print ping(12)
print wrap_hash(9)
print count_paths(6, 6)
