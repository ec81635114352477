% Host interpreter: a one-line user function called a million times, `s = f(s)`.
% iterations: 1000000
function y = f(x)
    y = 0.5*x + 1
end
s = 0.
for i = 1..1000000
    s = f(s)
end
print s
