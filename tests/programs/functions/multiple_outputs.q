% Functions with several outputs, used in multi-assignment and as a single value.
% ==
% stdout {
% 3 1
% 7
% 2 5 10
% }
function [q, r] = divmod(a, b)
    q = floor(a / b)
    r = a - q * b
end
[q, r] = divmod(10, 3)
print q, " ", r
function [lo, hi, total] = stats(v)
    lo = min(v)
    hi = max(v)
    total = sum(v)
end
x = divmod(22, 3)
print x
[a, b, c] = stats([3, 2, 5])
print a, " ", b, " ", c
