% Host code: the recurrence `s = 0.5*s + mod(i, 7)` at ten million iterations, the size
% a compiled host tier is judged at (CPython takes about a second).
% iterations: 10000000
s = 0.
for i = 1..10000000
    s = 0.5*s + mod(i, 7)
end
print s
