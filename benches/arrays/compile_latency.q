% Compile latency: 20 distinct whole-array statements on 1024x1024 arrays, each a new
% kernel. Timed as a whole process (`time blazar run`), cold (no kernel cache) and warm.
x = rand(1024, 1024)
y = x + 1
y = x .* 2 + 1
y = x .^ 2 - x
y = exp(-x)
y = sqrt(x) + 1
y = max(x, 0.5)
y = x > 0.5
y = sin(x) + cos(x)
y = abs(x - 0.5)
y = log(x + 1)
y = mod(x, 0.25)
y = floor(x * 10)
y = x ./ (x + 1)
y = tanh(x)
y = (x - 0.5) .* (x + 0.5)
y = round(x * 100) / 100
y = atan2(x, 0.5)
s = sum(x .* x)
s = max(x)
s = mean(x - 0.5)
print s
