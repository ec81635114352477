% The filter of row_filter.q on a 20 x 64 image in blocks of 20 x 32, so that the
% shared tile (20 x 34) is image-shaped: `shared` writes it as a PNG.
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

img = zeros(20, 64)
for i = 0..19
    for j = 0..63
        img[i, j] = 10 * i + j
    endfor
endfor
out = zeros(20, 64)
parallel_do([[20, 64], [20, 32]], img, out, smooth_rows)
print sum(out)
