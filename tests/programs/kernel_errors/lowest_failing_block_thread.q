% Blocks do not change the order: position (0, 2) lies in the second block of a 2x2
% tiling but before (1, 1) of the first block in row-major order, so its failure (at
% the later line, after a barrier) is the one reported.
% ==
% error: (?s)lowest_failing_block_thread\.q:12:14: error: \(parallel_do\) tiles - index 4 is out of bounds for dimension 0 of size 4 \(indices start at 0: the last is 3, and a loop over the dimension is `for i = 0\.\.3`\): line 12.*lowest_failing_block_thread\.q:15:1: note: `tiles` was launched here
function [] = __kernel__ tiles(y : mat, c : vec'checked, pos : ivec2, blkpos : ivec2)
    s = shared(2, 2)
    s[blkpos] = pos[0] + pos[1]
    syncthreads
    assert(pos[0] != 1 || pos[1] != 1)
    y[pos] = s[blkpos]
    y[pos] = c[2 * pos[1]]
end
y = zeros(4, 4)
parallel_do([[4, 4], [2, 2]], y, zeros(4), tiles)
