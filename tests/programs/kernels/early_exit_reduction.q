% Tree reductions in which threads leave the kernel (`return`) as soon as their
% value has been taken, each at its own depth of the reduction loop, with barriers
% inside that loop: each barrier waits for the threads that have not left. Block sizes
% that are not powers of two work too. `block_max` allocates zero-filled shared memory
% after every thread but one has left; `sum_squares` has a kernel output, which the
% threads that left still contribute to (their accumulators hold the identity). In
% `first_n`, the threads past `n` leave before the first barrier.
% Expected values computed independently in Python from x[i] = (7 i^2 + 3 i) mod 211:
% the maximum of each block (and 6 times it), the sum of x[i]^2 over the launch, and
% the sum of the first n values.
% ==
% stdout {
% [ [201,1206],
%   [200,1200],
%   [208,1248],
%   [208,1248],
%   [200,1200] ]
% [ [201,1206],
%   [208,1248],
%   [208,1248] ]
% [ [200,1200],
%   [196,1176],
%   [201,1206],
%   [201,1206],
%   [196,1176],
%   [200,1200],
%   [181,1086],
%   [208,1248],
%   [195,1170],
%   [206,1236],
%   [206,1236],
%   [195,1170],
%   [208,1248],
%   [181,1086],
%   [200,1200],
%   [196,1176] ]
% 3691482
% 3691482
% 3539662
% 61397
% 10235
% 489
% }
function [] = __kernel__ block_max(x : vec, out : mat, blkdim : int, blkpos : int, blkidx : int, pos : int)
    s = shared(blkdim)
    s[blkpos] = x[pos]
    syncthreads
    stride = 1
    while stride < blkdim
        if mod(blkpos, 2 * stride) != 0
            return
        end
        if blkpos + stride < blkdim
            s[blkpos] = max(s[blkpos], s[blkpos + stride])
        end
        syncthreads
        stride *= 2
    end
    % Only thread 0 is left: the zero fill of this allocation is its alone.
    c = shared_zeros(4)
    for k = 0..3
        c[k] += k * s[0]
    end
    out[blkidx, 0] = s[0]
    out[blkidx, 1] = c[0] + c[1] + c[2] + c[3]
end

function [total : scalar] = __kernel__ sum_squares(x : vec, blkdim : int, blkpos : int, pos : int)
    s = shared_zeros(blkdim)
    s[blkpos] = x[pos] * x[pos]
    syncthreads
    half = blkdim
    while half > 1
        h = int(ceil(half / 2))
        if blkpos >= h
            return
        end
        if blkpos + h < half
            s[blkpos] = s[blkpos] + s[blkpos + h]
        end
        syncthreads
        half = h
    end
    total += s[0]
end

function [total : scalar] = __kernel__ first_n(x : vec, n : int, blkdim : int, blkpos : int, blkidx : int, pos : int)
    s = shared(blkdim)
    if pos >= n
        return
    end
    s[blkpos] = x[pos]
    syncthreads
    if blkpos == 0
        for k = 0..min(blkdim, n - blkidx * blkdim) - 1
            total += s[k]
        end
    end
end

x = mod(7 * (0..239) .* (0..239) + 3 * (0..239), 211)
for b = [48, 80, 15]
    out = zeros(240 / b, 2)
    parallel_do([[240], [b]], x, out, block_max)
    print out
end
print parallel_do([[240], [60]], x, sum_squares)
print parallel_do([[240], [240]], x, sum_squares)
print parallel_do([[231], [33]], x, sum_squares)
print parallel_do([[7], [7]], x, sum_squares)
print parallel_do([[240], [48]], x, 100, first_n)
print parallel_do([[16], [16]], x, 7, first_n)
