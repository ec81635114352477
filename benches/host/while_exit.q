% Host interpreter: a `while` loop with a data-dependent exit: the Collatz steps of
% 1..10000 (850 thousand iterations of the inner loop).
% iterations: 849666
total = 0
for n = 1..10000
    x = n
    while x != 1
        if mod(x, 2) == 0
            x = x / 2
        else
            x = 3*x + 1
        end
        total = total + 1
    end
end
print total
