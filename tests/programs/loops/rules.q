% `reduction` rules rewrite the program before loops are parallelised: an untyped rule
% applies everywhere it matches; a rule with typed parameters or a `where` condition
% applies where the values conform when the statement runs (else the original runs);
% statement rules such as the conditional assignment `x[a > b] = c` rewrite whole
% assignments.
% ==
% stdout {
% slow 3
% 9
% 49
% slow 2.5
% 6.25
% 8
% 27
% [0,5,0,5,5]
% [0,1,0,1,1]
% [101,2.5,0,1,1]
% }
function y = slow_square(x)
    print "slow ", x
    y = x * x
end
type matrix_type : [vec|mat|cube]
reduction (x : int) -> slow_square(x) = x * x where x > 5
reduction (x : scalar) -> slow_square(x) = x * x where x > 5
reduction (x, n) -> pow(x, n) = x * x * x where n == 3
reduction (x : matrix_type, a : matrix_type, b, c) -> (x[a > b] = c) = (x += (c - x) .* (a > b))
reduction (x : vec, c : int) -> (x[0] = c) = (x[0] = c + 100)
print slow_square(3)
print slow_square(7)
print slow_square(2.5)
print pow(2, 3)
print pow(3, 3)
v = [1, 9, 2, 8, 7]
w = zeros(5)
w[v > 5] = 5
print w
m = zeros(5)
m[v > 5] = 1
print m
% A statement rule that is visible (for the test): typed, so checked when it runs.
m[0] = 1
k = 2.5
m[1] = k
print m
