% Type annotations on call arguments state, and where needed convert, the argument's
% type: `twice(n : int)`, `f(img : cube, 1/s, "nearest")`.
% ==
% stdout {
% 6
% 10
% nearest
% 4
% }
function y = twice(n : int)
  y = 2 * n
end
function y = weigh(img : cube, s, mode : string)
  print mode
  y = sum(img) * s
end
print twice(3.7 : int)
n = 5
print twice(n : int)
x = ones(2, 2, 2)
print weigh(x : cube, 1/2, "nearest")
