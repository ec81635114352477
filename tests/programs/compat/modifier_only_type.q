% A type that is only an access modifier (`step : 'unchecked`) is a parameter of
% unspecified type with that modifier; a quoted word after `:` elsewhere is a string.
% ==
% stdout {
% 5
% [1,2,3,4]
% b
% }
function y = f(v : vec'unchecked, step : 'unchecked)
  y = v[0] + step
end
function y = g(v : 'circular)
  y = [v[0], v[1], v[2], v[3]]
end
print f([1, 2, 3], 4)
print g([1, 2, 3, 4])
c = 0
print c ? 'a' : 'b'
