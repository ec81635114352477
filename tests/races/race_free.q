% No races: a shared tile filled, then read after syncthreads; a histogram counted
% with atomic updates; a block reading back only its own block's elements.
function [] = __kernel__ rotate_tile(y : vec, x : vec, pos : int, blkpos : int, blkdim : int)
    tile = shared(blkdim)
    tile[blkpos] = x[pos]
    syncthreads
    y[pos] = tile[mod(blkpos + 1, blkdim)]
end

function [] = __kernel__ histogram(h : vec, x : vec, pos : int)
    h[int(x[pos])] += 1
end

function [] = __kernel__ own_block(y : vec, z : vec, pos : int, blkpos : int, blkdim : int)
    y[pos] = pos
    syncthreads
    z[pos] = y[pos - blkpos + mod(blkpos + 1, blkdim)]
end

x = 0..15
y = zeros(16)
parallel_do([[16], [8]], y, x, rotate_tile)
print y
h = zeros(4)
parallel_do(16, h, mod(x, 4), histogram)
print h
z = zeros(16)
parallel_do([[16], [8]], y, z, own_block)
print z
