% shared_zeros allocates zero-filled shared memory of 1, 2 and 3 dimensions; every
% thread of a block adds into it atomically, then one thread per block copies the
% totals out. Each of the 4 blocks sees only its own memory.
% ==
% stdout {
% 1
% 1
% 1
% }
function [] = __kernel__ fill(out1 : mat, out2 : cube, out3 : cube, pos : int, blkpos : int, blkidx : int)
    a = shared_zeros(8)
    b = shared_zeros(4, 4)
    c = shared_zeros(2, 3, 4)
    a[mod(blkpos, 8)] += 1
    b[mod(blkpos, 4), mod(blkpos, 3)] += pos
    c[mod(blkpos, 2), mod(blkpos, 3), mod(blkpos, 4)] += 1
    syncthreads
    if blkpos == 0
        for i = 0..7
            out1[blkidx, i] = a[i]
        endfor
        for i = 0..3
            for j = 0..3
                out2[blkidx, i, j] = b[i, j]
            endfor
        endfor
        for i = 0..1
            for j = 0..2
                for k = 0..3
                    out3[blkidx, i * 3 + j, k] = c[i, j, k]
                endfor
            endfor
        endfor
    endif
endfunction

out1 = zeros(4, 8)
out2 = zeros(4, 4, 4)
out3 = zeros(4, 6, 4)
parallel_do([[96], [24]], out1, out2, out3, fill)

e1 = zeros(4, 8)
e2 = zeros(4, 4, 4)
e3 = zeros(4, 6, 4)
for p = 0..95
    [blk, t] = [floor(p / 24), mod(p, 24)]
    e1[blk, mod(t, 8)] = e1[blk, mod(t, 8)] + 1
    e2[blk, mod(t, 4), mod(t, 3)] = e2[blk, mod(t, 4), mod(t, 3)] + p
    e3[blk, mod(t, 2) * 3 + mod(t, 3), mod(t, 4)] = e3[blk, mod(t, 2) * 3 + mod(t, 3), mod(t, 4)] + 1
end
print sum(abs(out1 - e1)) == 0
print sum(abs(out2 - e2)) == 0
print sum(abs(out3 - e3)) == 0
