% A block reduction whose barrier sits inside the thread-dependent branch, as
% published Quasar code writes it: a thread whose partner is out of range leaves the
% reduction for good, and each barrier waits for the threads of the block that reach
% it. Block sizes that are not powers of two work too. On CUDA these kernels use the
% software block barrier (`__syncthreads()` is undefined in such code).
% ==
% stdout {
% 500500
% 500500
% 2016
% [36,100]
% [ [0,3,2,3,1,3,2,3],
%   [0,3,2,3,1,3,2,3] ]
% }
function [total : scalar] = __kernel__ block_totals(x : vec, rounds : int, blkdim : int, blkpos : int)
    acc = shared(blkdim)
    partial = 0.0
    for r = 0..rounds-1
        i = r * blkdim + blkpos
        if i < numel(x)
            partial += x[i]
        end
    end
    acc[blkpos] = partial
    syncthreads
    stride = 1
    while stride < blkdim
        at = 2 * stride * blkpos
        if at + stride < blkdim
            acc[at] = acc[at] + acc[at + stride]
            syncthreads
        end
        stride *= 2
    end
    if blkpos == 0
        total += acc[0]
    end
end

% Per row of a matrix: the threads of a row reduce it in place, then thread 0 stores it;
% each thread also counts the rounds it sat out (the `else` of the branch).
function [] = __kernel__ row_sums(m : mat, out : vec, idle : mat, blkpos : ivec2, blkdim : ivec2, pos : ivec2)
    s = shared(blkdim[1])
    rest = 0
    s[blkpos[1]] = m[pos]
    syncthreads
    half = 1
    while half < blkdim[1]
        if mod(blkpos[1], 2 * half) == 0
            if blkpos[1] + half < blkdim[1]
                s[blkpos[1]] = s[blkpos[1]] + s[blkpos[1] + half]
            end
            syncthreads
        else
            rest += 1
        end
        half *= 2
    end
    idle[pos] = rest
    if blkpos[1] == 0
        out[pos[0]] = s[0]
    end
end

x = 1..1000
print parallel_do([[1, 64], [1, 64]], x, int(ceil(1000 / 64)), block_totals)
print parallel_do([[48], [48]], x, int(ceil(1000 / 48)), block_totals)
print parallel_do([[1, 63], [1, 63]], 1..63, 1, block_totals)
m = [[1, 2, 3, 4, 5, 6, 7, 8], [10, 11, 12, 13, 14, 15, 16, 9]]
sums = zeros(2)
idle = zeros(2, 8)
parallel_do([[2, 8], [1, 8]], m, sums, idle, row_sums)
print sums
print idle
