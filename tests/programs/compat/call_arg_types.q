% Type annotations on call arguments state, and where needed convert, the argument's
% type: `twice(n : int)`, `f(img : cube, 1/s, "nearest")`.
% ==
% stdout {
% 6
% 10
% nearest
% 4
% [0,2,4.5,6.5]
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
function y = __device__ half(n : int)
  y = n / 2
end
function [] = __kernel__ k(y : vec, pos : int)
  y[pos] = half(4.5 * pos : int)
end
y = zeros(4)
parallel_do(4, y, k)
print y
