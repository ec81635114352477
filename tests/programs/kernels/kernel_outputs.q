% Kernel output parameters are accumulated over all threads and returned by
% parallel_do: one output, several outputs of different types, `-=` and `*=`.
% ==
% stdout {
% 4950
% 4950 50 -100
% 1024
% 1
% }
function total = __kernel__ sum_kernel(x : vec, pos : int)
    total += x[pos]
endfunction
function [s : scalar, evens : int, neg : int] = __kernel__ stats(x : vec, pos : int)
    s += x[pos]
    if mod(x[pos], 2) == 0
        evens += 1
    endif
    neg -= 1
endfunction
function p : scalar = __kernel__ doubling(pos : int)
    p *= 2
endfunction
x = zeros(100)
for i = 0..99
    x[i] = i
end
print parallel_do(100, x, sum_kernel)
[s, e, n] = parallel_do(100, x, stats)
print s, " ", e, " ", n
print parallel_do(10, doubling)
host = 0
for i = 0..99
    host += x[i] * x[i]
end
function y : int = __kernel__ squares(x : vec, pos : int)
    y += x[pos] * x[pos]
endfunction
print parallel_do(size(x), x, squares) == host
