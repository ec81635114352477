% A kernel whose pos is an ivec2 cannot run over a 3-d index space.
% ==
% error: dims_rank\.q:7:1: error: \(parallel_do\) fill2 - an index space of 3 dimensions does not fit the kernel's 2-dimensional positions
function [] = __kernel__ fill2(y : cube, pos : ivec2)
    y[pos[0], pos[1], 0] = 1
end
parallel_do([2, 3, 4], zeros(2, 3, 4), fill2)
