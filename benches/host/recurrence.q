% Host interpreter: the recurrence of issue 25, `s = 0.5*s + mod(i, 7)`.
% iterations: 1000000
s = 0.
for i = 1..1000000
    s = 0.5*s + mod(i, 7)
end
print s
