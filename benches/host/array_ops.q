% Host array operations: element-wise expressions and reductions on a 2048x2048 image.
x = rand(2048, 2048)
y = zeros(2048, 2048)
for k = 1..10
    y = y + 0.5 * x .* x - x / 3
end
print sum(y) > 0
