% Host interpreter speed: recursive calls (fib(25), about 250 thousand calls).
function y = fib(n : int)
    if n < 2
        y = n
    else
        y = fib(n - 1) + fib(n - 2)
    end
end
print fib(25)
