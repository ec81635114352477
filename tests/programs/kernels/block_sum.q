% Parallel sum of a vector in one block: per-thread strided partial sums, then a tree
% reduction in shared memory (`bins = shared(blkdim)`, `while bit < blkdim`, `bit *= 2`,
% syncthreads), accumulated in a kernel output `y += bins[0]`.
% ==
% stdout {
% 6000
% 1
% 1
% 1
% }
function [y : scalar] = __kernel__ block_sum(x : vec'unchecked, blkpos : int, blkdim : int)
    bins = shared(blkdim)
    nblocks = int((numel(x) + blkdim - 1) / blkdim)
    val = 0.0
    for m = 0..nblocks - 1
        if blkpos + m * blkdim < numel(x)
            val += x[blkpos + m * blkdim]
        endif
    endfor
    bins[blkpos] = val
    syncthreads
    bit = 1
    while bit < blkdim
        index = 2 * bit * blkpos
        if index + bit < blkdim
            bins[index] = bins[index] + bins[index + bit]
        endif
        syncthreads
        bit *= 2
    endwhile
    if blkpos == 0
        y += bins[0]
    endif
endfunction

n = 1000
x = zeros(n)
for i = 0..n - 1
    x[i] = mod(i * 7, 13)
end
host = 0
for i = 0..n - 1
    host += x[i]
end
s1 = parallel_do(256, x, block_sum)
print s1
print s1 == host
% One block of 128 threads, dims given as [[1, N], [1, N]] (a leading 1 is 1-d).
s2 = parallel_do([[1, 128], [1, 128]], x, block_sum)
print s2 == host
% A block size that is not a power of two still reduces correctly.
s3 = parallel_do([[100], [100]], x, block_sum)
print s3 == host
