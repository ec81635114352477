% Planted race: a barrier orders the threads of one block only; reading the element
% another block wrote is a race even after syncthreads.
function [] = __kernel__ peek_next_block(y : vec, z : vec, pos : int, blkdim : int)
    y[pos] = pos * 2
    syncthreads
    z[pos] = y[mod(pos + blkdim, numel(y))]
end

y = zeros(8)
z = zeros(8)
parallel_do([[8], [4]], y, z, peek_next_block)
print y
