% Host: a search with an early `return` from inside its loop, in a function called from
% top-level code (a loop with `return` stays interpreted when outlined alone; the whole
% function runs compiled). Eight searches over one million values.
% iterations: 7000322
function i = first_above(a : vec, t)
    i = -1
    for k = 0..numel(a) - 1
        if a[k] > t
            i = k
            return
        end
    end
end
n = 1000000
a = zeros(n)
for k = 0..n - 1
    a[k] = mod(k * 7919, 1000)
end
a[n - 1] = 5000
total = 0
total = total + first_above(a, 998)
total = total + first_above(a, 999)
total = total + first_above(a, 1000)
total = total + first_above(a, 1500)
total = total + first_above(a, 2000)
total = total + first_above(a, 3000)
total = total + first_above(a, 4000)
total = total + first_above(a, 4500)
print total
