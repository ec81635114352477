% Kernels whose body is `assignments; while cond (assignments); stores`, which the
% native CPU tier runs for groups of threads at once with a flag per thread: trip
% counts differ between neighbouring threads (zero for some, long for others), rows are
% no multiple of any strip (131, 67 and 200 wide, one row of 5, rows of 3 run as one
% flattened row), the loop's condition reads
% an array that the kernel never writes, one thread of a strip loops far longer than
% the others, a kernel output sums each thread's count, and
% a store after the loop fails for one thread only. Every result is compared with the
% same computation on the host.
% ==
% stdout {
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% }
% error: while_lanes\.q:\d+:\d+: error: .*index 7 .*out of bounds.*
function [] = __kernel__ collatz(y : mat'unchecked, pos : ivec2)
    v = pos[0] * 131 + pos[1]
    n = 0
    while v > 1
        e = mod(v, 2)
        v = (1 - e) * floor(v / 2) + e * (3 * v + 1)
        n += 1
    endwhile
    y[pos] = n
endfunction

function [] = __kernel__ escape(im : mat'unchecked, s : scalar, t : cscalar, max_it : int, pos : ivec2)
    p = (float(pos) ./ size(im, 0..1)) - 0.5
    c = t + s * complex(p[1], p[0])
    z = 0i
    n = 0
    while n < max_it && abs(z) <= 2.0
        z = z * z + c
        n += 1
    endwhile
    im[pos] = n + real(z) * 0
endfunction

function [] = __kernel__ walk(a : vec'unchecked, y : mat'unchecked, pos : ivec2)
    i = pos[1]
    k = 0
    while i < pos[1] + 20 && a[mod(i, 150)] > 0.5
        k += a[mod(i, 150)]
        i += 1
    endwhile
    y[pos] = k + i
endfunction

function [] = __kernel__ skew(y : vec'unchecked, pos : int)
    m = 1 + 300 * (mod(pos, 64) == 5) + 40 * (mod(pos, 64) == 9)
    k = 0
    a = 0.0
    while k < m
        a = a * 0.5 + k
        k += 1
    endwhile
    y[pos] = a
endfunction

function [s : scalar] = __kernel__ count_sum(y : mat'unchecked, pos : ivec2)
    k = mod(pos[0] * 7 + pos[1] * 3, 11)
    n = y[pos]
    while k > 0
        n += 0.5
        k -= 1
    endwhile
    s += n
endfunction

function [] = __kernel__ bad_store(x : vec'unchecked, y : mat'checked, pos : int)
    k = x[pos]
    while k < mod(pos, 9)
        k += 1
    endwhile
    y[k, pos] = pos
endfunction

% Collatz step counts: 40 x 131.
y = zeros(40, 131)
parallel_do(size(y), y, collatz)
want = zeros(40, 131)
for i = 0..39
    for j = 0..130
        v = i * 131 + j
        n = 0
        while v > 1
            if mod(v, 2) == 0
                v = v / 2
            else
                v = 3 * v + 1
            endif
            n += 1
        endwhile
        want[i, j] = n
    endfor
endfor
print all(y == want)

% An escape-time image, 67 x 67 and 1 x 5, against the same loop on the host.
function ok = check_escape(m, n)
    im = zeros(m, n)
    parallel_do(size(im), im, 2.5, complex(-0.5, 0.1), 40, escape)
    ok = true
    for i = 0..m - 1
        for j = 0..n - 1
            c = complex(-0.5, 0.1) + 2.5 * complex(float(j) / n - 0.5, float(i) / m - 0.5)
            z = 0i
            k = 0
            while k < 40 && abs(z) <= 2.0
                z = z * z + c
                k += 1
            endwhile
            ok = ok && im[i, j] == k
        endfor
    endfor
endfunction
print check_escape(67, 67)
print check_escape(1, 5)
print check_escape(3, 200)
print check_escape(150, 3)

% A condition that reads an array: runs of values over 0.5.
a = zeros(150)
for i = 0..149
    a[i] = 0.3 + mod(i * 5, 7) * 0.1
endfor
y = zeros(3, 150)
parallel_do(size(y), a, y, walk)
ok = true
for r = 0..2
    for j = 0..149
        i = j
        k = 0
        while i < j + 20 && a[mod(i, 150)] > 0.5
            k += a[mod(i, 150)]
            i += 1
        endwhile
        ok = ok && abs(y[r, j] - (k + i)) < 1e-4
    endfor
endfor
print ok

% One long loop (and one medium) among short ones in each strip of 64 threads.
y = zeros(64 * 5 + 3)
parallel_do(numel(y), y, skew)
ok = true
for p = 0..numel(y) - 1
    m = 1 + 300 * (mod(p, 64) == 5) + 40 * (mod(p, 64) == 9)
    a = 0.0
    for k = 0..m - 1
        a = a * 0.5 + k
    endfor
    ok = ok && y[p] == a
endfor
print ok

% A kernel output of the loop's results.
s = parallel_do([30, 97], zeros(30, 97), count_sum)
w = 0
for i = 0..29
    for j = 0..96
        w += mod(i * 7 + j * 3, 11) * 0.5
    endfor
endfor
print s == w

% A store after the loop fails (k = 7 for pos = 7, 16, ...; y has 7 rows); each thread
% stores into its own column, so no two threads write one element.
y = zeros(7, 200)
parallel_do(200, zeros(200), y, bad_store)
