% parallelblocks.q: 2 x 3 blocks of a 5 x 7 mat (the last row and column of blocks
% smaller): block_count, block_reduce with each reduction (all blocks at once in a
% kernel), per channel of a cube, and block_process replacing each block by f(block).
% Reference: NumPy, reducing x[p*2:(p+1)*2, q*3:(q+1)*3] of x = arange(35).reshape(5,
% 7) % 9 block by block.
% ==
% stdout {
% [3,3]
% [ [18,18,10],
%   [30,30,2],
%   [6,15,7] ]
% [ [3,3,5],
%   [5,5,1],
%   [2,5,7] ]
% [ [0,1,4],
%   [3,0,0],
%   [1,4,7] ]
% [ [8,5,6],
%   [7,8,2],
%   [3,6,7] ]
% [3,3,2] 18 36
% [1,1,1]
% 0 12
% }
import "parallelblocks.q"
x = mod(reshape(0..34, [5, 7]), 9)
print block_count(x, [2, 3])
print block_reduce(x, [2, 3], "sum")
print block_reduce(x, [2, 3], "mean")
print block_reduce(x, [2, 3], "min")
print block_reduce(x, [2, 3], "max")
c = zeros(5, 7, 2)
c[:, :, 0] = x
c[:, :, 1] = 2 * x
r = block_reduce(c, [2, 3], "sum")
print size(r), " ", r[0, 0, 0], " ", r[0, 0, 1]
y = block_process(x, [2, 3], (b, pq) -> b - mean(b))
print abs(block_reduce(y, [2, 3], "sum")[0, :]) < 1e-9
z = block_process(x, [2, 3], (b, pq) -> zeros(size(b)) + pq[0] * 10 + pq[1])
print z[0, 0], " ", z[2, 6]
