% &&, || and ! on fixed-length vectors in kernels work element-wise, as on host arrays;
% a scalar operand stands for every element (ints and reals are true when not 0).
% ==
% stdout {
% [ [12,100],
%   [153,241] ]
% [1,0] [1,0] [1,0]
% }
function [] = __kernel__ logic(y : mat, pos : ivec2)
    q = pos && [1, 0]
    r = !pos
    s = float(pos) && 1
    t = pos || false
    u = 0 || pos
    y[pos] = q[0] + 2 * q[1] + 4 * r[0] + 8 * r[1] + 16 * s[0] + 32 * s[1] + _
             64 * t[1] + 128 * u[0]
end

y = zeros(2, 2)
parallel_do(size(y), y, logic)
print y
% Host code: element-wise as well.
print [1, 0] && [1, 1], " ", !([0, 2]), " ", [0.5, 0] || 0
