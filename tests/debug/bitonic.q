% Bitonic sort of each 8-element segment in its own block: at every stage, a thread
% compares its element with the partner `blkpos xor j` and keeps the pair in the
% direction its bitonic sequence needs, with a barrier between the stages.
function [] = __kernel__ sort_segments(a : vec, pos : int, blkpos : int, blkdim : int)
    seg = shared(blkdim)
    seg[blkpos] = a[pos]
    syncthreads
    k = 2
    while k <= blkdim
        j = int(k / 2)
        while j > 0
            partner = xor(blkpos, j)
            if partner > blkpos
                up = and(blkpos, k) == 0
                x = seg[blkpos]
                y = seg[partner]
                if (x > y) == up
                    seg[blkpos] = y
                    seg[partner] = x
                endif
            endif
            syncthreads
            j = int(j / 2)
        endwhile
        k = k * 2
    endwhile
    a[pos] = seg[blkpos]
endfunction

a = zeros(16) + [5, 2, 7, 1, 8, 3, 6, 4, 15, 9, 12, 10, 14, 11, 16, 13]
parallel_do([[16], [8]], a, sort_segments)
print a
