% A generic parallel reduction: the accumulator is a __device__ function passed as a
% function-typed kernel parameter (`type accumulator : [__device__ (scalar, scalar) ->
% scalar]`), used for a sum, a product and a maximum; checked against host loops.
% ==
% stdout {
% 210
% 1
% 1
% 1
% 20
% }
type accumulator : [__device__ (scalar, scalar) -> scalar]

function y : scalar = __kernel__ reduce(x : vec'unchecked, acc : accumulator, val : scalar, blkpos : int, blkdim : int)
    bins = shared(blkdim)
    nblocks = int((numel(x) + blkdim - 1) / blkdim)
    for m = 0..nblocks - 1
        if blkpos + m * blkdim < numel(x)
            val = acc(val, x[blkpos + m * blkdim])
        endif
    endfor
    bins[blkpos] = val
    syncthreads
    bit = 1
    while bit < blkdim
        index = 2 * bit * blkpos
        if index + bit < blkdim
            bins[index] = acc(bins[index], bins[index + bit])
        endif
        syncthreads
        bit *= 2
    endwhile
    if blkpos == 0
        y += bins[0]
    endif
endfunction

device_sum = __device__ (a : scalar, b : scalar) -> a + b
device_prod = __device__ (a : scalar, b : scalar) -> a * b
function z = __device__ device_max(a : scalar, b : scalar)
    z = a > b ? a : b
end

x = zeros(20)
for i = 0..19
    x[i] = i + 1
end
p = 1 + x / 100
s = parallel_do(32, x, device_sum, 0, reduce)
print s
host_prod = 1
for i = 0..19
    host_prod *= p[i]
end
pr = parallel_do(16, p, device_prod, 1, reduce)
print abs(pr - host_prod) < 1e-4 * host_prod
print abs(pr - prod(p)) < 1e-4 * host_prod
mx = parallel_do(8, x, device_max, -1e30, reduce)
print mx == max(x)
print mx
