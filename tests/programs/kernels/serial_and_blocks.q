% serial_do runs a kernel with the same meaning as parallel_do (including shared memory,
% barriers and atomics), and max_block_size gives block shapes of at most 1024 threads.
% ==
% stdout {
% 1
% 1
% 1
% 16
% [32,32]
% [32,16,2]
% }
function [] = __kernel__ reverse_blocks(x : vec, y : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[blkpos] = x[pos]
    syncthreads
    y[pos] = s[blkdim - 1 - blkpos]
endfunction
function [total : scalar] = __kernel__ square_sum(x : vec, h : vec, pos : int)
    total += x[pos]^2
    h[mod(pos, 4)] += 1
endfunction

x = zeros(64)
for i = 0..63
    x[i] = mod(i * 5, 17)
end
y1 = zeros(64)
y2 = zeros(64)
parallel_do([[64], [16]], x, y1, reverse_blocks)
serial_do([[64], [16]], x, y2, reverse_blocks)
print sum(abs(y1 - y2)) == 0
ok = 1
for i = 0..63
    ok = ok && y1[i] == x[16 * floor(i / 16) + 15 - mod(i, 16)]
end
print ok
h1 = zeros(4)
h2 = zeros(4)
t1 = parallel_do(64, x, h1, square_sum)
t2 = serial_do(64, x, h2, square_sum)
print t1 == t2 && t1 == sum(x.^2) && sum(abs(h1 - h2)) == 0 && h1[0] == 16
print max_block_size(reverse_blocks, 16)
print max_block_size(reverse_blocks, [64, 64])
print max_block_size(reverse_blocks, [32, 64, 2])
