% rand and randn: shapes, and rand's values lie in [0, 1).
% ==
% stdout {
% [3,4]
% 1
% [1,5]
% [2,2,2]
% 1
% 1
% }
r = rand(3, 4)
print size(r)
print min(r) >= 0 && max(r) < 1
print size(rand(5))
print size(randn(2, 2, 2))
n = randn(10000)
print abs(mean(n)) < 0.1
print abs(mean(n .* n) - 1) < 0.1
