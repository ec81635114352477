% bytes: 805306368
% Inclusive prefix sum of 2^26 floats, reduce-then-scan in three kernels:
%   1. each of 1024 blocks sums one chunk of 65536 elements (tree in shared memory);
%   2. one block scans the 1024 chunk sums into exclusive chunk offsets;
%   3. each block scans its chunk in tiles of 8 elements per thread: the tile is
%      staged through shared memory (coalesced loads and stores), each thread scans
%      its 8 consecutive elements sequentially, the block scans the threads' totals
%      (Hillis-Steele), each thread adds the sum before its elements, and the running
%      total is carried from tile to tile.
% The input is read twice and the output written once. The data are 0/1 with about
% 15.5 million ones, so every partial sum is an exact integer in single precision and
% any summation order gives the same result.

function [] = __kernel__ make_data(x : vec'unchecked, pos : int)
    x[pos] = mod(pos * 7, 13) < 3 ? 1.0 : 0.0
endfunction

function [] = __kernel__ chunk_sums(x : vec'unchecked, sums : vec'unchecked, len : int, _
                                    blkidx : int, blkpos : int, blkdim : int)
    assert(blkdim <= 1024)
    part = shared(blkdim)
    first = blkidx * len
    acc = 0.0
    for k = first + blkpos..blkdim..first + len - 1
        acc += x[k]
    endfor
    part[blkpos] = acc
    syncthreads
    step = shr(blkdim, 1)
    while step > 0
        if blkpos < step
            part[blkpos] = part[blkpos] + part[blkpos + step]
        endif
        syncthreads
        step = shr(step, 1)
    endwhile
    if blkpos == 0
        sums[blkidx] = part[0]
    endif
endfunction

% Inclusive scan of the block's values in s (one per thread), in place.
function [] = __device__ block_scan(s : vec'unchecked, blkpos : int, blkdim : int)
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

function [] = __kernel__ chunk_offsets(sums : vec'unchecked, offsets : vec'unchecked, _
                                       blkpos : int, blkdim : int)
    assert(blkdim <= 1024)
    s = shared(blkdim)
    s[blkpos] = sums[blkpos]
    syncthreads
    block_scan(s, blkpos, blkdim)
    offsets[blkpos] = s[blkpos] - sums[blkpos]
endfunction

% Element q of a tile lives at q + q/32 in shared memory: with the padding, the 32
% threads of a warp reading their 8 consecutive elements hit 32 different banks (thread
% blkpos's first is at mine = 8 blkpos + blkpos/4). The block size is a multiple of 32,
% so element j * blkdim + blkpos (the j-th that thread blkpos loads and stores) lives at
% j * stride + at, with stride = blkdim + blkdim/32 and at = blkpos + blkpos/32.
function [] = __kernel__ chunk_scan(x : vec'unchecked, y : vec'unchecked, offsets : vec'unchecked, _
                                    len : int, blkidx : int, blkpos : int, blkdim : int)
    assert(blkdim <= 1024 && mod(blkdim, 32) == 0)
    per = 8
    tile_len = per * blkdim
    s = shared(tile_len + shr(tile_len, 5))
    t = shared(blkdim)
    first = blkidx * len
    carry = offsets[blkidx]
    mine = per * blkpos + shr(blkpos, 2)
    stride = blkdim + shr(blkdim, 5)
    at = blkpos + shr(blkpos, 5)
    for tile = first..tile_len..first + len - 1
        for j = 0..per - 1
            s[j * stride + at] = x[tile + j * blkdim + blkpos]
        endfor
        syncthreads
        acc = 0.0
        for i = 0..per - 1
            acc += s[mine + i]
            s[mine + i] = acc
        endfor
        t[blkpos] = acc
        syncthreads
        block_scan(t, blkpos, blkdim)
        before = carry + (blkpos > 0 ? t[blkpos - 1] : 0.0)
        for i = 0..per - 1
            s[mine + i] = before + s[mine + i]
        endfor
        carry = carry + t[blkdim - 1]
        syncthreads
        for j = 0..per - 1
            y[tile + j * blkdim + blkpos] = s[j * stride + at]
        endfor
        syncthreads
    endfor
endfunction

function [] = prefix_sum(x, y, sums, offsets, chunks, threads)
    len = int(numel(x) / chunks)
    parallel_do([[1, chunks * threads], [1, threads]], x, sums, len, chunk_sums)
    parallel_do([[1, chunks], [1, chunks]], sums, offsets, chunk_offsets)
    parallel_do([[1, chunks * threads], [1, threads]], x, y, offsets, len, chunk_scan)
endfunction

reps = 30
n = 67108864
[chunks, threads] = [1024, 256]
x = zeros(n)
parallel_do(n, x, make_data)
y = zeros(n)
sums = zeros(chunks)
offsets = zeros(chunks)

prefix_sum(x, y, sums, offsets, chunks, threads)
for r = 1..reps
    tic()
    prefix_sum(x, y, sums, offsets, chunks, threads)
    toc("rep")
endfor
print "checksum: ", sum(y)
