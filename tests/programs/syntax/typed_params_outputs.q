% Typed and defaulted parameters and a typed output.
% ==
% stdout {
% 8.5
% 3.5
% 12
% [2,4]
% }
function y : scalar = blend(a : scalar, b : int = 2, w : scalar = 0.5)
    y = a * b + w
end
print blend(4, 2)
print blend(1.5)
print blend(1, 10, 2)
function v : vec = twice(u : vec)
    v = 2 * u
end
print twice([1, 2])
