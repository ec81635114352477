% A separable smoothing filter, the horizontal pass: each block loads its row segment
% and a one-pixel apron into shared memory, waits, then averages three neighbours.
function [] = __kernel__ smooth_rows(img : mat'clamped, out : mat, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    tile = shared(blkdim[0], blkdim[1] + 2)
    tile[blkpos[0], blkpos[1] + 1] = img[pos]
    if blkpos[1] == 0
        tile[blkpos[0], 0] = img[pos[0], pos[1] - 1]
    endif
    if blkpos[1] == blkdim[1] - 1
        tile[blkpos[0], blkdim[1] + 1] = img[pos[0], pos[1] + 1]
    endif
    syncthreads
    acc = tile[blkpos[0], blkpos[1]] + tile[blkpos[0], blkpos[1] + 1] + tile[blkpos[0], blkpos[1] + 2]
    out[pos] = acc / 3
endfunction

img = zeros(2, 8)
for i = 0..1
    for j = 0..7
        img[i, j] = 10 * i + j
    endfor
endfor
out = zeros(2, 8)
parallel_do([[2, 8], [1, 4]], img, out, smooth_rows)
print out
