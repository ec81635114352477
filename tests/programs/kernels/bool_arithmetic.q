% Arithmetic on booleans in kernels treats them as the ints 0 and 1, as host code does:
% -b is -1 or 0, min/max/round of booleans are 0 or 1, and mod(b, false) is the int rule
% mod(x, 0) = 0.
% ==
% stdout {
% [0,0,0,-1,-1,-1]
% [0,0,0,11,11,11]
% [0,0,0,0,0,0]
% -1 1 0 0
% }
function [] = __kernel__ negate(y : vec, pos : int)
    b = pos > 2
    y[pos] = -b
end

function [] = __kernel__ rounded_max(y : vec, pos : int)
    b = pos > 2
    y[pos] = round(max(b, b)) + 10 * min(b, true)
end

function [] = __kernel__ modulo(y : vec, pos : int)
    b = pos > 2
    y[pos] = mod(b, false) + 10 * mod(b, true) + 100 * mod(true, b)
end

y = zeros(6)
parallel_do(6, y, negate)
print y
parallel_do(6, y, rounded_max)
print y
parallel_do(6, y, modulo)
print y
% The host's booleans are the ints 0 and 1.
print -true, " ", round(max(true, true)), " ", mod(true, false), " ", mod(true, true)
