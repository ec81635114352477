% `clamp(x, hi)` with two arguments clamps to [0, hi] (in host and kernel code); a user
% function with a builtin's name overloads it by arity instead of hiding its other forms.
% ==
% stdout {
% 3 0 2.5
% [1,4,0]
% [0,0.5,1,1]
% 6
% 7
% 9
% -1
% }
print clamp(5, 3), " ", clamp(-2, 3), " ", clamp(2.5, 3)
print clamp([1, 5, -1], 4)
function [] = __kernel__ k(x : vec, y : vec, pos : int)
  y[pos] = clamp(x[pos], 1)
end
x = [-1, 0.5, 1, 3]
y = zeros(4)
parallel_do(4, x, y, k)
print y
function y = max(a, b, c)
  y = a + b + c
end
function y = floor(a, b)
  y = -1
end
print max(1, 2, 3)
print max([1, 7, 3])
print max(4, 9)
print floor(2, 3)
