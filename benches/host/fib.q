% Recursive calls (fib(25): 242785 calls). On the C++ tier the function compiles whole,
% its calls of itself as real calls; `iterations` counts the calls.
% iterations: 242785
function y = fib(n : int)
    if n < 2
        y = n
    else
        y = fib(n - 1) + fib(n - 2)
    end
end
print fib(25)
