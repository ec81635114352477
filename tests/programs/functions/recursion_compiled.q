% Recursive host functions, which the C++ tier compiles whole (its calls of itself as
% real calls) and other tiers leave to the interpreter: int32 wrapping inside the
% recursion, mutual recursion, a deep but legal recursion, a call of a helper in the
% cycle, a real result. Every tier gives the interpreter's answers.
% ==
% stdout {
% 6765
% 1180052131 689956897
% 1 0
% 1500
% 55
% 0.25
% }
function y = fib(n : int)
    if n < 2
        y = n
    else
        y = fib(n - 1) + fib(n - 2)
    end
end
function y = pow3(n : int)
    y = n == 0 ? 1 : 3 * pow3(n - 1)
end
function y = is_even(n)
    y = n == 0 ? 1 : is_odd(n - 1)
end
function y = is_odd(n)
    y = n == 0 ? 0 : is_even(n - 1)
end
function y = depth(n : int)
    y = n == 0 ? 0 : 1 + depth(n - 1)
end
function y = before(n : int)
    y = n - 1
end
function y = tri(n : int)
    y = n <= 0 ? 0 : n + tri(before(n))
end
function y = third(x, n : int)
    y = n == 0 ? x / 3 : third(x, n - 1)
end
print fib(20)
print pow3(25), " ", pow3(40)
print is_even(10), " ", is_even(7)
print depth(1500)
print tri(10)
print third(0.75, 5)
