% `--deterministic`: both CPU tiers give the host's bits for float32 transcendentals
% (issue 32, item 11). The native tier is then built without the vector math library
% (whose functions may be up to 4 ulp from the scalar ones the host and the SIMT
% interpreter call); kernels and fused array expressions are compared with the host's
% whole-array functions, element by element: no element differs.
% Every array expression fused; `deterministic_unfused.q` has fusion off.
% CUDA's math library does not give the C library's bits (its error bounds are
% documented in the guide), so this runs on the CPU backends only.
% ==
% backends { cpu nvrtc }
% options { --deterministic --fuse-min 0 }
% stdout {
% 0
% 0
% 0
% 0
% 0
% 0
% 0
% 0
% 0
% }
x = linspace(-10, 10, 4096)
function [] = __kernel__ math(x : vec, y : mat, pos : int)
    v = x[pos]
    y[0, pos] = exp(v)
    y[1, pos] = sin(v)
    y[2, pos] = cos(v)
    y[3, pos] = log(abs(v) + 1)
    y[4, pos] = tanh(v)
    y[5, pos] = atan2(v, 3)
    y[6, pos] = (abs(v) + 1) ^ 1.7
    y[7, pos] = sqrt(abs(v)) / 3
endfunction
y = zeros(8, 4096)
parallel_do(4096, x, y, math)
function [] = check(j, y, h)
    print sum(y[j, :] != h)
endfunction
check(0, y, exp(x))
check(1, y, sin(x))
check(2, y, cos(x))
check(3, y, log(abs(x) + 1))
check(4, y, tanh(x))
check(5, y, atan2(x, 3))
check(6, y, (abs(x) + 1) .^ 1.7)
check(7, y, sqrt(abs(x)) / 3)
function [] = __kernel__ flat(x : vec, e : vec, pos : int)
    e[pos] = exp(x[pos]) + sin(x[pos]) * cos(x[pos]) + atan2(x[pos], 2) + tanh(x[pos])
endfunction
e = zeros(4096)
parallel_do(4096, x, e, flat)
print sum(e != exp(x) + sin(x) .* cos(x) + atan2(x, 2) + tanh(x))
