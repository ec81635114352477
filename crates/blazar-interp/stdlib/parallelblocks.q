% parallelblocks.q: Blazar's bundled block-processing module: an image cut into
% non-overlapping blocks, each block reduced or transformed on its own.
%
% The blocks of a mat (or of each slice of a cube) x with block size bsize = [bm, bn]
% start at multiples of bsize: block (p, q) covers rows p bm .. min((p+1) bm, M) - 1 and
% columns q bn .. min((q+1) bn, N) - 1; the blocks of the last row and column may be
% smaller. There are ceil(M / bm) x ceil(N / bn) of them.
%   r = block_reduce(x, bsize, op): one value per block, op "sum", "mean", "min" or
%       "max" (a mean divides by the block's own size); one kernel thread per block
%       and channel, all blocks at once.
%   y = block_process(x, bsize, f): y[block] = f(x[block], [p, q]) for every block, f a
%       function returning an array of its argument's size (host code: f may be any
%       function, called once per block, row of blocks by row of blocks); y is a real
%       array of x's size, whatever x's element type.
%   b = block_count(x, bsize): [ceil(M / bm), ceil(N / bn)].

function [] = __kernel__ block_reduce_kernel(x : cube'unchecked, r : cube'unchecked, _
        bm : int, bn : int, op : int, pos : ivec3)
    i0 = pos[0] * bm
    j0 = pos[1] * bn
    i1 = min(i0 + bm, size(x, 0))
    j1 = min(j0 + bn, size(x, 1))
    acc = x[i0, j0, pos[2]]
    if op < 2
        acc = 0.0
    end
    for i = i0..i1 - 1
        for j = j0..j1 - 1
            v = x[i, j, pos[2]]
            if op < 2
                acc += v
            elseif op == 2
                acc = min(acc, v)
            else
                acc = max(acc, v)
            end
        end
    end
    if op == 1
        acc = acc / ((i1 - i0) * (j1 - j0))
    end
    r[pos] = acc
end

% internal
function [bm, bn] = block_sizes(x, bsize, who : string)
    if numel(bsize) != 2 || any(bsize < 1) || any(bsize != round(bsize))
        error(sprintf("%s: the block size is [rows, columns] of positive integers", who))
    end
    if ndims(x) > 3
        error(sprintf("%s: expected a mat or a cube", who))
    end
    bm = int(bsize[0])
    bn = int(bsize[1])
end

% block_count(x, bsize)
%
% The number of blocks of size bsize ([rows, columns]) along each of the first two
% dimensions of x: [ceil(M / bm), ceil(N / bn)], the last ones possibly smaller.
%
% Example:
%     print block_count(zeros(5, 8), [2, 4])
% Output:
%     [3,2]
function b = block_count(x, bsize)
    [bm, bn] = block_sizes(x, bsize, "block_count")
    b = [ceil(size(x, 0) / bm), ceil(size(x, 1) / bn)]
end

% block_reduce(x, bsize, op)
%
% One value per block of size bsize ([rows, columns]) of a mat or of each slice of a
% cube: op "sum", "mean", "min" or "max" of the block's samples. The blocks are
% reduced in parallel, one kernel thread each.
%
% Example:
%     x = reshape(0..14, [3, 5])
%     print block_reduce(x, [2, 2], "sum")
%     print block_reduce(x, [2, 2], "max")
% Output:
%     [ [12,20,13],
%       [21,25,14] ]
%     [ [6,8,9],
%       [11,13,14] ]
function r = block_reduce(x, bsize, op : string)
    [bm, bn] = block_sizes(x, bsize, "block_reduce")
    code = -1
    match op with
    | "sum" -> code = 0
    | "mean" -> code = 1
    | "min" -> code = 2
    | "max" -> code = 3
    | _ -> error(sprintf("block_reduce: unknown reduction %s (use sum, mean, min or max)", op))
    end
    dims = [ceil(size(x, 0) / bm), ceil(size(x, 1) / bn), size(x, 2)]
    r = zeros(dims)
    if numel(x) > 0
        parallel_do(dims, x, r, bm, bn, code, block_reduce_kernel)
    end
    if ndims(x) < 3
        r = r[:, :, 0]
    end
end

% block_process(x, bsize, f)
%
% x (a mat or a cube) with each block of size bsize ([rows, columns]) replaced by
% f(block, [p, q]), [p, q] the block's index; f returns an array of the block's size.
%
% Example:
%     x = reshape(0..11, [3, 4])
%     print block_process(x, [2, 2], (b, pq) -> b - mean(b))
% Output:
%     [ [-2.5,-1.5,-2.5,-1.5],
%       [1.5,2.5,1.5,2.5],
%       [-0.5,0.5,-0.5,0.5] ]
function y = block_process(x, bsize, f)
    [bm, bn] = block_sizes(x, bsize, "block_process")
    y = zeros(size(x))
    nb = block_count(x, bsize)
    for p = 0..nb[0] - 1
        for q = 0..nb[1] - 1
            i1 = min((p + 1) * bm, size(x, 0)) - 1
            j1 = min((q + 1) * bn, size(x, 1)) - 1
            b = x[p * bm..i1, q * bn..j1, :]
            if ndims(x) < 3
                b = b[:, :, 0]
            end
            r = f(b, [p, q])
            if numel(r) != numel(b) || size(r, 0) != size(b, 0) || size(r, 1) != size(b, 1)
                error(sprintf("block_process: f gave %d x %d for the %d x %d block [%d, %d]", _
                    size(r, 0), size(r, 1), size(b, 0), size(b, 1), p, q))
            end
            if ndims(x) < 3
                y[p * bm..i1, q * bn..j1] = r
            else
                y[p * bm..i1, q * bn..j1, :] = r
            end
        end
    end
end
