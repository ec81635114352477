% Kernel type inference runs until every type is known: a chain of 40 locals, each
% computed from the one before, compiles (issue 32, item 9: it stopped at 32).
% ==
% stdout {
% [40,41,42]
% }
function [] = __kernel__ k(y : vec[int], pos : int)
    t0 = pos
    t1 = t0 + 1
    t2 = t1 + 1
    t3 = t2 + 1
    t4 = t3 + 1
    t5 = t4 + 1
    t6 = t5 + 1
    t7 = t6 + 1
    t8 = t7 + 1
    t9 = t8 + 1
    t10 = t9 + 1
    t11 = t10 + 1
    t12 = t11 + 1
    t13 = t12 + 1
    t14 = t13 + 1
    t15 = t14 + 1
    t16 = t15 + 1
    t17 = t16 + 1
    t18 = t17 + 1
    t19 = t18 + 1
    t20 = t19 + 1
    t21 = t20 + 1
    t22 = t21 + 1
    t23 = t22 + 1
    t24 = t23 + 1
    t25 = t24 + 1
    t26 = t25 + 1
    t27 = t26 + 1
    t28 = t27 + 1
    t29 = t28 + 1
    t30 = t29 + 1
    t31 = t30 + 1
    t32 = t31 + 1
    t33 = t32 + 1
    t34 = t33 + 1
    t35 = t34 + 1
    t36 = t35 + 1
    t37 = t36 + 1
    t38 = t37 + 1
    t39 = t38 + 1
    t40 = t39 + 1
    y[pos] = t40
end
y = int(zeros(3))
parallel_do(3, y, k)
print y
