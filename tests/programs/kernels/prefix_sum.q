% Prefix sums in shared memory. Naive (Hillis-Steele) inclusive scan with a double
% buffer, per block of 32, made global with a scan of the block totals and a fix-up
% kernel using blkidx; then the work-efficient (Blelloch) exclusive scan of 64 values
% by 32 threads (up-sweep, clear, down-sweep). Checked against host cumsum.
% ==
% stdout {
% 1
% 1
% [0,1,5,8,16,25,31,40]
% 1
% }
function [] = __kernel__ scan_hs(x : vec, y : vec, totals : vec, pos : int, blkpos : int, blkdim : int, blkidx : int)
    buf = shared(2, blkdim)
    cur = 0
    buf[0, blkpos] = x[pos]
    syncthreads
    offset = 1
    while offset < blkdim
        nxt = 1 - cur
        if blkpos >= offset
            buf[nxt, blkpos] = buf[cur, blkpos] + buf[cur, blkpos - offset]
        else
            buf[nxt, blkpos] = buf[cur, blkpos]
        endif
        syncthreads
        cur = nxt
        offset *= 2
    endwhile
    y[pos] = buf[cur, blkpos]
    if blkpos == blkdim - 1
        totals[blkidx] = buf[cur, blkpos]
    endif
endfunction

function [] = __kernel__ add_offsets(y : vec, scanned_totals : vec, pos : int, blkidx : int)
    if blkidx > 0
        y[pos] += scanned_totals[blkidx - 1]
    endif
endfunction

function [] = __kernel__ scan_blelloch(x : vec, y : vec, n : int, blkpos : int, blkdim : int)
    assert(n == 2 * blkdim)
    t = shared(n)
    t[2 * blkpos] = x[2 * blkpos]
    t[2 * blkpos + 1] = x[2 * blkpos + 1]
    offset = 1
    d = shr(n, 1)
    while d > 0
        syncthreads
        if blkpos < d
            ai = offset * (2 * blkpos + 1) - 1
            bi = offset * (2 * blkpos + 2) - 1
            t[bi] += t[ai]
        endif
        offset *= 2
        d = shr(d, 1)
    endwhile
    if blkpos == 0
        t[n - 1] = 0
    endif
    d = 1
    while d < n
        offset = shr(offset, 1)
        syncthreads
        if blkpos < d
            ai = offset * (2 * blkpos + 1) - 1
            bi = offset * (2 * blkpos + 2) - 1
            tmp = t[ai]
            t[ai] = t[bi]
            t[bi] += tmp
        endif
        d *= 2
    endwhile
    syncthreads
    y[2 * blkpos] = t[2 * blkpos]
    y[2 * blkpos + 1] = t[2 * blkpos + 1]
endfunction

N = 128
x = zeros(N)
for i = 0..N - 1
    x[i] = mod(i * i * 3 + 1, 10)
end

% Naive scan, 4 blocks of 32.
y = zeros(N)
totals = zeros(4)
parallel_do([[N], [32]], x, y, totals, scan_hs)
scanned = zeros(4)
unused = zeros(4)
parallel_do([[4], [4]], totals, scanned, unused, scan_hs)
parallel_do([[N], [32]], y, scanned, add_offsets)
print sum(abs(y - cumsum(x))) == 0
print y[N - 1] == sum(x)

% Work-efficient exclusive scan of the first 64 values.
x64 = x[0..63]
e = zeros(64)
parallel_do([[32], [32]], x64, e, 64, scan_blelloch)
print e[0..7]
print sum(abs(e - (cumsum(x64) - x64))) == 0
