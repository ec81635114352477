% `abs(z) <= c` and `abs(z) < c` on single-precision complex values, written directly
% (the native tier compares the squared norm against a threshold, without the square
% root: `codegen-c/cpp/cmpabs.rs`) and through a variable holding `abs(z)` (compared as
% it is): the two agree for points on both sides of, and within a few ulps of, circles
% of several radii, and for infinite and NaN parts. An escape-time loop as in a
% Mandelbrot set then counts its iterations.
% ==
% stdout {
% 0
% 11
% [0,0,0,0,0,0]
% 1
% }

% The comparisons of `abs(z)` with the constant `c`, written directly (bits 0-3) and
% through the variable `a` (subtracted), so 0 when they agree; 16 marks `a <= c`.
function y = __device__ sides(a : scalar, c : scalar, r : scalar)
    held = 0
    if a <= c
        held += 1
    endif
    if a < c
        held += 2
    endif
    if c >= a
        held += 4
    endif
    if c > a
        held += 8
    endif
    y = r - held + 16 * float(a <= c)
endfunction

function [] = __kernel__ compare(res : mat, radius : vec, pos : ivec2)
    c = radius[pos[0]]
    k = pos[1]
    % A point near the circle of radius c, nudged by whole multiples of 2^-24 c.
    t = float(mod(k, 97)) * 0.0647
    z = complex(c * cos(t), c * sin(t) + float(mod(k, 7) - 3) * c * 5.9604645e-8)
    a = abs(z)
    r = 0.0
    if pos[0] == 0
        r = float(abs(z) <= 2.0) + 2 * float(abs(z) < 2.0) + 4 * float(2.0 >= abs(z)) + 8 * float(2.0 > abs(z))
    elseif pos[0] == 1
        r = float(abs(z) <= 1.0) + 2 * float(abs(z) < 1.0) + 4 * float(1.0 >= abs(z)) + 8 * float(1.0 > abs(z))
    elseif pos[0] == 2
        r = float(abs(z) <= 0.5) + 2 * float(abs(z) < 0.5) + 4 * float(0.5 >= abs(z)) + 8 * float(0.5 > abs(z))
    elseif pos[0] == 3
        r = float(abs(z) <= 3.0) + 2 * float(abs(z) < 3.0) + 4 * float(3.0 >= abs(z)) + 8 * float(3.0 > abs(z))
    elseif pos[0] == 4
        r = float(abs(z) <= 1e-3) + 2 * float(abs(z) < 1e-3) + 4 * float(1e-3 >= abs(z)) + 8 * float(1e-3 > abs(z))
    else
        r = float(abs(z) <= 7.25) + 2 * float(abs(z) < 7.25) + 4 * float(7.25 >= abs(z)) + 8 * float(7.25 > abs(z))
    endif
    res[pos] = sides(a, c, r)
endfunction

radius = [2.0, 1.0, 0.5, 3.0, 1e-3, 7.25]
res = zeros(numel(radius), 4096)
parallel_do(size(res), res, radius, compare)
mismatches = 0
inside = 0
for i = 0..size(res, 0) - 1
    for j = 0..size(res, 1) - 1
        v = res[i, j]
        if v >= 16
            inside += 1
            v -= 16
        endif
        if v != 0
            mismatches += 1
        endif
    endfor
endfor
print mismatches
print inside > 1000, inside < numel(res) - 1000

% Infinite and NaN parts: never inside.
function [] = __kernel__ special_parts(res : vec, parts : vec, pos : int)
    z = complex(parts[2 * pos], parts[2 * pos + 1])
    r = 0.0
    if abs(z) <= 2.0
        r += 1
    endif
    if abs(z) < 2.0
        r += 1
    endif
    res[pos] = r
endfunction
inf = 1 / 0
parts = [inf, 0, 0, -inf, inf, 0 / 0, 0 / 0, 1, 1e30, 1e30, 0 / 0, -inf]
flags = zeros(6)
parallel_do(6, flags, parts, special_parts)
print flags

function [] = __kernel__ escape(im : vec, pos : int)
    c = complex(-0.75 + float(pos) * 1e-3, 0.1)
    z = 0i
    n = 0
    while n < 200 && abs(z) <= 2.0
        z = z * z + c
        n += 1
    endwhile
    im[pos] = n
endfunction
counts = zeros(512)
parallel_do(512, counts, escape)
print max(counts) == 200 && min(counts) < 200
