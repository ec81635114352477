% Type aliases and type classes `type T : [vec|mat]` used as parameter types.
% ==
% stdout {
% 3
% 4
% 6
% 2
% }
type real_t : scalar
type arr : [vec|mat]
function y = count(a : arr)
    y = numel(a)
end
function y : real_t = half(x : real_t)
    y = x / 2
end
print count([1, 2, 3])
print count(ones(2, 2))
print count(zeros(2, 3))
print half(4)
