% Private copies of add-only global arrays belong to the launch (`codegen-c/cpp/private.rs`):
% ranges take a free copy or make one, and the range that completes the launch's work
% items adds every copy in once. Many ranges of a launch (blocks and chunks), several
% updates a thread, two arrays of odd sizes (a vector of 37, a 5x3 matrix), launches
% repeated (each starts a record of its own), and bins no thread updates keeping -0.
% ==
% stdout {
% 1
% 1
% 1
% 1
% 1
% -Inf
% }
function [] = __kernel__ spread(h : vec, m : mat, n : int, pos : int)
    for k = 0..2
        h[mod(pos * 7 + k * 11, 37)] += k + 1
    endfor
    m[mod(pos, 5), mod(pos * 3 + 1, 3)] += 0.5
endfunction

function [] = __kernel__ blocks(h : vec, m : mat, pos : ivec2, blkpos : ivec2)
    for k = 0..pos[1]
        h[mod(pos[0] * 5 + k, 37)] += 1
    endfor
    m[mod(pos[0], 5), blkpos[1]] += 1
endfunction

n = 20011
want_h = zeros(37)
want_m = zeros(5, 3)
for p = 0..n - 1
    for k = 0..2
        want_h[mod(p * 7 + k * 11, 37)] = want_h[mod(p * 7 + k * 11, 37)] + k + 1
    endfor
    want_m[mod(p, 5), mod(p * 3 + 1, 3)] = want_m[mod(p, 5), mod(p * 3 + 1, 3)] + 0.5
endfor
ok = 1
for rep = 1..3
    h = zeros(37)
    m = zeros(5, 3)
    parallel_do(n, h, m, n, spread)
    ok = ok && sum(abs(h - want_h)) == 0 && sum(abs(m - want_m)) == 0
endfor
print ok

% 301 blocks of 3 threads.
want_h = zeros(37)
want_m = zeros(5, 3)
for b = 0..300
    for t = 0..2
        for k = 0..t
            want_h[mod(b * 5 + k, 37)] = want_h[mod(b * 5 + k, 37)] + 1
        endfor
        want_m[mod(b, 5), t] = want_m[mod(b, 5), t] + 1
    endfor
endfor
h = zeros(37)
m = zeros(5, 3)
parallel_do([[301, 3], [1, 3]], h, m, blocks)
print sum(abs(h - want_h)) == 0
print sum(abs(m - want_m)) == 0

% Too few threads for copies (8 bins, 16 threads): atomic updates, the same sums.
h = zeros(8)
parallel_do(16, h, __kernel__ (h : vec, pos : int) -> h[mod(pos, 8)] += 1)
print sum(h) == 16

% Bins that start at -0 and that no thread updates stay -0 (256 threads, 8 bins).
h = zeros(8) * -1
parallel_do(256, h, __kernel__ (h : vec, pos : int) -> h[mod(pos, 4)] += 1)
print sum(h[0..3]) == 256
print 1 / h[7]
