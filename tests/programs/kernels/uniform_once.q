% Assignments that every thread of a block makes alike, at the ends of the statements
% between two barriers (the native CPU tier runs them once per block): a tiled block
% scan whose step `d` doubles between barriers and whose running total `carry` grows
% after each tile's stores, on odd block sizes and a length that is not a multiple of
% the tile; a variable that looks uniform but is per-thread; a uniform value read
% after a checked load (which may fail: it stays in the loop over the threads).
% ==
% stdout {
% 1 17.5
% 1 25
% 1 49.5
% 1 12.5
% 1 49.5
% [12,7,12,12,7,12,12,7,12,12,7,12]
% [30,30,30,30,30,30,30,30,30,30,30,30]
% [20,21,22,20,21,22]
% }
function [] = __device__ scan_in_place(s : vec'unchecked, blkpos : int, blkdim : int)
    d = 1
    while d < blkdim
        v = 0.0
        if blkpos >= d
            v = s[blkpos - d]
        endif
        syncthreads
        s[blkpos] = s[blkpos] + v
        syncthreads
        d = shl(d, 1)
    endwhile
endfunction

% Each block scans `len` elements of x from blkidx * len, tile by tile; the last tile
% may be partial (threads past the end add zeros and store nothing).
function [] = __kernel__ tile_scan(x : vec, y : vec, len : int, _
                                   blkidx : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    first = blkidx * len
    carry = 0.0
    for tile = first..blkdim..first + len - 1
        k = tile + blkpos
        s[blkpos] = k < first + len ? x[k] : 0.0
        syncthreads
        scan_in_place(s, blkpos, blkdim)
        if k < first + len
            y[k] = carry + s[blkpos]
        endif
        carry = carry + s[blkdim - 1]
        syncthreads
    endfor
endfunction

% `m` is blkdim in every thread but thread 1, which takes its position: per-thread.
% `w` is alike in every thread and read after the stores of its statements.
function [] = __kernel__ almost_uniform(y : vec, z : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    m = blkdim
    if blkpos == 1
        m = blkpos
    endif
    s[blkpos] = m
    syncthreads
    w = s[0] + blkdim
    y[pos] = s[blkdim - 1 - blkpos] + m
    w = w * 2 + s[blkdim - 1]
    syncthreads
    z[pos] = w
endfunction

% A checked load assigns `w` inside the statements (it may fail), then `u` reads it.
function [] = __kernel__ after_checked(c : vec'checked, y : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[blkpos] = blkpos
    w = c[blkdim - 2]
    u = w * 10
    syncthreads
    y[pos] = u + s[blkpos]
endfunction

n = 101
x = zeros(n)
for k = 0..n - 1
    x[k] = mod(k * 37 + 11, 5) - 1.5
endfor
function [] = check(x, blocks, threads)
    n = numel(x)
    len = int(ceil(n / blocks))
    xs = zeros(blocks * len)
    xs[0..n - 1] = x
    y = zeros(blocks * len)
    parallel_do([[1, blocks * threads], [1, threads]], xs, y, len, tile_scan)
    want = zeros(blocks * len)
    for b = 0..blocks - 1
        want[b * len..(b + 1) * len - 1] = cumsum(xs[b * len..(b + 1) * len - 1])
    endfor
    print max(abs(y - want)) == 0, " ", y[n - 1]
endfunction

check(x, 3, 7)
check(x, 2, 5)
check(x, 1, 1)
check(x, 4, 16)
check(x, 1, 128)
y = zeros(12)
z = zeros(12)
parallel_do([[12], [6]], y, z, almost_uniform)
print y
print z
y = zeros(6)
parallel_do([[6], [3]], [1, 2, 3, 4], y, after_checked)
print y
