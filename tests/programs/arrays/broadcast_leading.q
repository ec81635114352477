% Broadcasting lines up leading dimensions, as MATLAB and Quasar do (issue 27, item
% 10): an M×N mat and an M×N×1 cube are the same shape (never M×N×M), a mat repeats
% over a cube's channels, a vec is a row, and shapes that do not fit are an error
% naming both. The suite also runs this with every array expression fused.
% ==
% stdout {
% [4,4,1] 120
% [4,4,1] -120
% [4,4,3] 360
% [4,4,3] 168
% [4,4] 160
% }
% error: broadcast_leading\.q:29:5: error: cannot combine arrays of size \[4,4,3\] and \[1,3\]
a = reshape(0..15, [4, 4])
c = cube(4, 4, 1)
for i = 0..3
    for j = 0..3
        c[i, j, 0] = 2 * a[i, j]
    end
end
d = c - a
print size(d), " ", sum(d)
print size(a - c), " ", sum(a - c)
x = ones(4, 4, 3)
print size(x .* a), " ", sum(x .* a)
v = [1, 2, 3, 4]
print size(x + v), " ", sum(x + v)
print size(a + v), " ", sum(a + v)
z = x - [1, 2, 3]
