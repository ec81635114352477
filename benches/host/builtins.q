% Host interpreter: builtin calls in a scalar recurrence (`sqrt`, `floor`, `mod`).
% iterations: 1000000
s = 0.
for i = 1..1000000
    s = 0.5*s + sqrt(i) + floor(i / 3) - mod(i, 5)
end
print s
