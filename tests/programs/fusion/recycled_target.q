% `v = e` may write its result into the array `v` holds when nothing else refers to it,
% but only the root's result: a part of `e` computed on the way (the operand of a
% `transpose`, which the kernel then reads at other positions) never overwrites it,
% and neither does the last statement of a fused group.
% ==
% options { --fuse-min 0 }
% stdout {
% 15
% 15 15
% 25
% }
u = ones(30, 30) * 5
u = transpose(u .* 2) + u
print u[0, 0]
w = ones(30, 30) * 5
y = w .* 2
w = transpose(y) + w
print w[0, 0], " ", w[29, 3]
z = ones(30, 30) * 5
a = z .* 2
b = a + z
z = b + transpose(a)
print z[4, 5]
