% A modifier belongs to the variable: a declared variable or parameter keeps it after reassignment.
% ==
% stdout {
% 0
% 8
% 4
% }
v : vec'safe = [1, 2]
v = [3, 4]
print v[5]
function y = last_clamped(a : vec'clamped)
    a = [7, 8]
    y = a[9]
end
print last_clamped([1, 2])
w : vec'circular = zeros(3)
w = [4, 5, 6]
print w[3]
