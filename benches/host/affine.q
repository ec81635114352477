% Host interpreter: a scalar recurrence no kernel can take, `s = 0.5*s + i`.
% iterations: 1000000
s = 0.
for i = 0..999999
    s = 0.5*s + i
end
print s
