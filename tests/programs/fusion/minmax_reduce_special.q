% `min` and `max` of all elements where the result is NaN or an infinity: a fused
% reduction with a thread per element (the CPU's) has no count of numbers, and a result
% left at the output's identity (+Inf for min, -Inf for max) is decided by the host's
% reduction; every tier gives the interpreter's values (all NaN: NaN; NaNs and -Inf:
% -Inf; a lone number among NaNs; -0 kept), over sizes that leave strip tails.
% ==
% options { --fuse-min 0 }
% stdout {
% 1: NaN NaN NaN NaN Inf NaN -2.5 -2.5 -Inf -Inf
% 7: NaN NaN -Inf -Inf Inf NaN -2.5 -2.5 -Inf -Inf
% 37: NaN NaN -Inf -Inf Inf NaN -2.5 -2.5 -Inf -Inf
% 1001: NaN NaN -Inf -Inf Inf NaN -2.5 -2.5 -Inf -Inf
% NaN NaN NaN
% 7 7 -Inf Inf
% [1,0]
% }
nan = 0 / 0
inf = 1 / 0
for n = [1, 7, 37, 1001]
    a = zeros(n) + nan
    b = zeros(n) - inf
    b[mod(3, n)] = nan
    c = zeros(n) + inf
    d = zeros(n) + nan
    d[n - 1] = -2.5
    z = -zeros(n)
    print n, ": ", max(a), " ", min(a .* 2), " ", max(b), " ", min(b + 1), " ", min(c), " ", max(c - inf), " ", max(d), " ", min(d), " ", 1 / max(z), " ", 1 / min(z .* 1)
endfor
m = zeros(5, 4, 3) + nan
print max(m), " ", min(m), " ", max(m + 1)
m[4, 3, 2] = 7
print max(m), " ", min(m), " ", max(m - inf), " ", min(m + inf)
e = zeros(0)
print size(e + 1)
