% Reference semantics around fused statement groups: an alias made by `b = a`, a
% function that modifies its argument (a statement of its own, or a call inside the
% expression: neither joins a group), arrays held by a cell and by an object and
% stored through afterwards, and a last statement that assigns an array the group
% reads (in place where each element is read before it is written, never through a
% transpose). Every value is the one of the statements run one by one.
% ==
% options { --fuse-min 0 }
% stdout {
% 3 100 3600
% 4 1000
% 4 2000
% 3 50
% 3 9
% 15 18000
% 10 5
% }
function [] = bump(v)
    v[0, 0] = 1000
endfunction
function r = bumped(v)
    v[0, 0] = 2000
    r = 1
endfunction
% `b = a` makes an alias: a store through `a` after the group is seen through `b`, and
% the group's values are those before the store.
a = ones(40, 30)
b = a
y = a .* 2
z = y + b
a[0, 0] = 100
print z[0, 0], " ", b[0, 0], " ", sum(z)
% A function that modifies its argument ends the group: `y2` is computed before it.
x = ones(40, 30)
y2 = x .* 3
bump(x)
z2 = y2 + 1
print z2[0, 0], " ", x[0, 0]
% A call inside the expression that modifies an operand: no deferred reads across it.
w = ones(40, 30)
y3 = w .* 3
z3 = y3 + bumped(w)
print z3[0, 0], " ", w[0, 0]
% Arrays held by a cell and by an object: the group reads them before the stores.
p = ones(40, 30)
c = `p, p'
y4 = c[0] .* 2
z4 = y4 + 1
c[1][0, 0] = 50
print z4[0, 0], " ", p[0, 0]
o = object()
o.data = ones(40, 30)
y5 = o.data .* 4
z5 = y5 - 1
o.data[0, 0] = 9
print z5[0, 0], " ", o.data[0, 0]
% The last statement assigns an array the group reads: each element is read before it
% is written.
u = ones(40, 30) * 5
y6 = u .* 2
u = y6 + u
print u[0, 0], " ", sum(u)
% Through a transpose (read at other positions): never written in place.
q = zeros(30, 30)
for i = 0..29
    q[i, :] = i
endfor
y7 = transpose(q) .* 2
q = y7 + q
print q[0, 5], " ", q[5, 0]
