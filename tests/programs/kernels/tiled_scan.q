% A chunked inclusive scan with several elements per thread: each block scans its chunk
% in tiles staged through shared memory (padded so that a warp's sequential reads hit
% different banks), every thread scans its own consecutive elements, the block scans
% the threads' totals, and a running total is carried across tiles. Many variables
% inside the tile loop get their types from one another (q, owner, before), which the
% lowering must learn in full. Checked against host cumsum on integer data.
% ==
% stdout {
% 1
% [1,4,4,6,10]
% 1
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

function [] = __kernel__ tiled_scan(x : vec, y : vec, offsets : vec, len : int, _
                                    blkidx : int, blkpos : int, blkdim : int)
    per = 8
    tile_len = per * blkdim
    s = shared(tile_len + shr(tile_len, 5))
    t = shared(blkdim)
    first = blkidx * len
    carry = offsets[blkidx]
    mine = per * blkpos + shr(per * blkpos, 5)
    for tile = first..tile_len..first + len - 1
        for j = 0..per - 1
            q = j * blkdim + blkpos
            s[q + shr(q, 5)] = x[tile + q]
        endfor
        syncthreads
        acc = 0.0
        for i = 0..per - 1
            acc += s[mine + i]
            s[mine + i] = acc
        endfor
        t[blkpos] = acc
        syncthreads
        scan_in_place(t, blkpos, blkdim)
        for j = 0..per - 1
            q = j * blkdim + blkpos
            owner = shr(q, 3)
            before = owner > 0 ? t[owner - 1] : 0.0
            y[tile + q] = carry + (before + s[q + shr(q, 5)])
        endfor
        carry = carry + t[blkdim - 1]
        syncthreads
    endfor
endfunction

function y = chunked_scan(x, chunks, threads)
    len = int(numel(x) / chunks)
    sums = zeros(chunks)
    for c = 0..chunks - 1
        sums[c] = sum(x[c * len..(c + 1) * len - 1])
    endfor
    offsets = cumsum(sums) - sums
    y = zeros(numel(x))
    parallel_do([[1, chunks * threads], [1, threads]], x, y, offsets, len, tiled_scan)
endfunction

n = 3072
x = zeros(n)
for k = 0..n - 1
    x[k] = mod(k * 37 + 11, 5)
endfor
% 3 chunks of 1024: 32 threads of 8 elements make tiles of 256, four per chunk.
y = chunked_scan(x, 3, 32)
print max(abs(y - cumsum(x))) == 0
print y[0..4]
% 2 chunks of 1536: 64 threads make tiles of 512, three per chunk.
print max(abs(chunked_scan(x, 2, 64) - cumsum(x))) == 0
