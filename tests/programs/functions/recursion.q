% Recursive functions: factorial, Fibonacci and mutual recursion.
% ==
% stdout {
% 120
% 3628800
% 55
% 1
% 0
% }
function y = fact(n)
    if n <= 1
        y = 1
    else
        y = n * fact(n - 1)
    end
end
function y = fib(n)
    y = n < 2 ? n : fib(n - 1) + fib(n - 2)
end
function y = is_even(n)
    y = n == 0 ? 1 : is_odd(n - 1)
end
function y = is_odd(n)
    y = n == 0 ? 0 : is_even(n - 1)
end
print fact(5)
print fact(10)
print fib(10)
print is_even(10)
print is_even(7)
