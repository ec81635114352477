% A more accurate parallel sum: Kahan compensated summation per thread, then a shared-
% memory tree reduction. The kernel is nested in a host function; the block size comes
% from max_block_size and the launch uses dims [[1, B], [1, B]].
% ==
% stdout {
% 750
% 1
% 1
% }
function y : scalar = accurate_sum(x : vec)
    function [y : scalar] = __kernel__ kahan_kernel(x : vec, nblocks : int, blkdim : int, blkpos : int)
        s = shared(blkdim)
        total = 0.0
        c = 0.0
        for n = 0..nblocks - 1
            if blkpos + n * blkdim < numel(x)
                u = x[blkpos + n * blkdim] - c
                t = total + u
                c = (t - total) - u
                total = t
            endif
        endfor
        s[blkpos] = total
        syncthreads
        bit = 1
        while bit < blkdim
            index = 2 * bit * blkpos
            if index + bit < blkdim
                s[index] = s[index] + s[index + bit]
            endif
            syncthreads
            bit *= 2
        endwhile
        if blkpos == 0
            y += s[0]
        endif
    endfunction
    N = numel(x)
    B = prod(max_block_size(kahan_kernel, N))
    print B
    nblocks = int((N + B - 1) / B)
    y = parallel_do([[1, B], [1, B]], x, nblocks, kahan_kernel)
end

x = zeros(3000)
for i = 0..2999
    x[i] = 1 / (i + 1)
end
s = accurate_sum(x)
% The sum of the 32-bit values, computed exactly, is 8.5837499548...
print abs(s - 8.58374995) < 2e-6
% A host Kahan sum agrees.
[total, c] = [0.0, 0.0]
for i = 0..2999
    u = x[i] - c
    t = total + u
    c = (t - total) - u
    total = t
end
print abs(s - total) < 2e-6
