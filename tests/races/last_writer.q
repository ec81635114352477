% Planted race, shown by the random schedule: every thread writes its position to one
% element, so which thread writes last decides what is printed; and each block reads
% an element the next block writes, so the block order decides the second line.
function [] = __kernel__ remember_last(flag : vec, pos : int)
    flag[0] = pos
end

function [] = __kernel__ peek_next_block(y : vec, z : vec, pos : int, blkdim : int)
    y[pos] = pos + 1
    syncthreads
    z[pos] = y[mod(pos + blkdim, numel(y))]
end

flag = zeros(1)
parallel_do(32, flag, remember_last)
print flag[0]
y = zeros(8)
z = zeros(8)
parallel_do([[8], [4]], y, z, peek_next_block)
print z
