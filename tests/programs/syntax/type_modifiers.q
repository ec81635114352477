% Type modifiers on declarations and parameters, with and without a space after the apostrophe.
% ==
% stdout {
% 3
% 0
% 9
% 6
% }
x : vec'unchecked'const = [1, 2, 3]
print x[2]
y : vec' safe = [4, 5]
print y[7]
function r = total(a : cube'unchecked, b : vec'const)
    r = sum(a) + b[0]
end
print total(ones(2, 2, 2), [1, 9])
z : mat'clamped = [[1, 2], [3, 6]]
print z[5, 5]
