% Liveness of a fused group's intermediates: one printed later, or read by a later
% statement, is materialised (the group ends at it); a variable read by its own
% assignment is live; a group in a loop runs as one region per iteration; scalars and
% small arrays run statement by statement; a function's locals fuse too.
% ==
% options { --fuse-min 0 }
% stdout {
% 34200 78
% 600 24600
% 49200
% 114300
% [7,14,21]
% 27300 57960
% }
x = zeros(40, 30)
for i = 0..39
    x[i, :] = i
endfor
% An intermediate printed later is materialised: the group is `t`, `e`.
y = x .* 2
t = y > 40
e = sum(t .* y)
print e, " ", y[39, 0]
% An intermediate reused later: the group is `t2`, `e2`; `y2` stays an array.
y2 = x + 1
t2 = y2 > 20
e2 = sum(t2)
f2 = sum(y2)
print e2, " ", f2
% A value read by its own statement is live before it: not an intermediate.
v = x .* 1
v = v + 1
w = v .* 2
print sum(w)
% A group in a loop: each iteration is one region; `acc` is read by its own statement.
acc = 0
for k = 1..3
    yk = x .* k
    tk = yk > 30
    ek = sum(tk .* yk)
    acc = acc + ek
endfor
print acc
% Scalars and small arrays at run time: the statements run one by one.
s1 = 2 * 3
s2 = s1 + 1
s3 = s2 * [1, 2, 3]
print s3
% Declared inside a function: locals, outputs and parameters.
function r = pipeline(img, c)
    g = img .* c
    h = g > 50
    r = sum(h .* g)
endfunction
print pipeline(x, 2), " ", pipeline(x, 3)
