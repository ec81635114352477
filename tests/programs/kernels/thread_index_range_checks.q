% Range checks of indices `blkpos + k`, `blkpos - k` and `k - blkpos` in blocks of 1024
% threads (the largest), with offsets k at the ends of the int range, on a shared and on
% a global array: an element outside reads zero and is not written. The native tier
% checks these indices in 32-bit lanes (`codegen-c/cpp/widen.rs`: the wrapped pattern
% is in range exactly when the exact value is), so this covers the extreme exact values:
% `blkpos - k` up to 2^31 + 1023 and `k - blkpos` down to -2^31 - 1023 (k = -2147483648),
% `blkpos + k` up to 2^31 + 1022 (k = 2147483647).
% ==
% stdout {
% 0 [524800,524800,1,0]
% 1 [524799,523776,3,1024]
% -1 [523776,524800,0,1]
% 1023 [1024,1,524800,524799]
% -1023 [1,524800,0,523776]
% 2147483647 [0,0,0,524800]
% -2147483648 [0,0,0,524800]
% -2147483647 [0,0,0,524800]
% 2147482625 [0,0,0,524800]
% -2147482625 [0,0,0,524800]
% }

function [] = __kernel__ offsets(y : vec, g : vec, k : int, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[blkpos] = blkpos + 1
    syncthreads
    a = s[blkpos + k]
    b = g[blkpos - k]
    c = s[k - blkpos]
    syncthreads
    s[blkpos - k] = 0
    g[k + blkpos] = -1
    syncthreads
    y[4 * pos] = a
    y[4 * pos + 1] = b
    y[4 * pos + 2] = c
    y[4 * pos + 3] = s[blkpos]
endfunction

function [] = run(k)
    y = zeros(4096)
    g = zeros(2048)
    for i = 0..2047
        g[i] = mod(i, 1024) + 1
    endfor
    parallel_do([[1024], [1024]], y, g, k, offsets)
    w = zeros(4)
    for t = 0..1023
        for q = 0..3
            w[q] = w[q] + abs(y[4 * t + q])
        endfor
    endfor
    print k, " ", w
endfunction

run(0)
run(1)
run(-1)
run(1023)
run(-1023)
run(2147483647)
run(-2147483648)
run(-2147483647)
run(2147482625)
run(-2147482625)
