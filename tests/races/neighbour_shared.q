% Planted race: each thread writes its own cell of a shared tile and reads its right
% neighbour's cell with no syncthreads between the two.
function [] = __kernel__ rotate_tile(y : vec, x : vec, pos : int, blkpos : int, blkdim : int)
    tile = shared(blkdim)
    tile[blkpos] = x[pos]
    y[pos] = tile[mod(blkpos + 1, blkdim)]
end

x = 0..15
y = zeros(16)
parallel_do([[16], [8]], y, x, rotate_tile)
print y
