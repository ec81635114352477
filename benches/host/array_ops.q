% Host array operations: element-wise expressions and reductions on a 2048x2048 image.
% (0.5 x^2 - x/4 has a positive mean over uniform x, so the printed sign is the same every run; with x/3 the mean was zero and the sign a coin toss.)
x = rand(2048, 2048)
y = zeros(2048, 2048)
for k = 1..10
    y = y + 0.5 * x .* x - x / 4
end
print sum(y) > 0
