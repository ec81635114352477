% Bitonic sort of every row of a matrix in shared memory: rows padded to a power of two
% with 1e37, compare-exchange stages separated by syncthreads, swaps written as
% `[s[v], s[w]] = [s[w], s[v]]` with position vectors; checked against a host
% insertion sort.
% ==
% stdout {
% 1
% [-18,-17,-11,-10,-5,-4,-3,2,3,9,10,16,17]
% }
function [] = __kernel__ bitonic_rows(x : mat, n : int, blkdim : ivec2, blkpos : ivec2, pos : ivec2)
    s = shared(blkdim[0], n)
    for l = 0..blkdim[1]..n - 1
        col = blkpos[1] + l
        s[blkpos[0], col] = col < size(x, 1) ? x[pos[0], col] : 1e37
    endfor
    syncthreads
    k = 2
    while k <= n
        j = shr(k, 1)
        while j > 0
            for l = 0..blkdim[1]..n - 1
                tid = blkpos[1] + l
                partner = xor(tid, j)
                if tid < partner
                    up = and(tid, k) == 0
                    v = [blkpos[0], up ? tid : partner]
                    w = [blkpos[0], up ? partner : tid]
                    if s[v] > s[w]
                        [s[v], s[w]] = [s[w], s[v]]
                    endif
                endif
            endfor
            syncthreads
            j = shr(j, 1)
        endwhile
        k *= 2
    endwhile
    for l = 0..blkdim[1]..n - 1
        col = blkpos[1] + l
        if col < size(x, 1)
            x[pos[0], col] = s[blkpos[0], col]
        endif
    endfor
endfunction

[R, C] = [6, 13]
x = zeros(R, C)
for r = 0..R - 1
    for c = 0..C - 1
        x[r, c] = mod(r * 17 + c * 29 + r * c * 5, 41) - 20
    end
end
% Host reference: insertion sort of each row.
expected = copy(x)
for r = 0..R - 1
    for i = 1..C - 1
        v = expected[r, i]
        j = i - 1
        while j >= 0 && expected[r, j] > v
            expected[r, j + 1] = expected[r, j]
            j -= 1
        end
        expected[r, j + 1] = v
    end
end
n = int(2^ceil(log2(C)))
parallel_do([[R, 8], [2, 8]], x, n, bitonic_rows)
print sum(abs(x - expected)) == 0
print x[1, :]
