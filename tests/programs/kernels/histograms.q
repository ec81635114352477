% Three histograms of an 8-bit image, all equal to a host count: a naive kernel with
% atomic `y[v] += 1`, a per-block histogram in shared memory (pos2ind/ind2pos, 4
% sub-histograms to spread the atomics), and a parallel loop written with `!parallel
% for` and `!kernel_transform` attributes.
% ==
% stdout {
% 768
% 1
% 1
% 1
% 1
% }
function y = hist_naive(im : cube)
    y = zeros(256)
    parallel_do(size(im), im, y, __kernel__ (im : cube, y : vec, pos : ivec3) -> y[im[pos]] += 1)
end

function y = hist_shared(im : cube)
    function [] = __kernel__ kernel(im : cube, y : vec, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
        nsub = 4
        y_sh : mat = shared(256, nsub)
        cnt = prod(blkdim)
        ind = pos2ind(blkdim, blkpos)
        for i = ind..cnt..numel(y_sh) - 1
            y_sh[ind2pos(size(y_sh), i)] = 0.0
        endfor
        syncthreads
        v = im[pos]
        y_sh[v, mod(ind, nsub)] += 1
        syncthreads
        for i = ind..cnt..255
            y[i] += sum(y_sh[i, 0..3])
        endfor
    endfunction
    y = zeros(256)
    parallel_do(size(im, 0..2), im, y, kernel)
end

function y = hist_loop(im : cube)
    y : vec'unchecked = zeros(256)
    !parallel for
    for m = 0..size(im, 0) - 1
        for n = 0..size(im, 1) - 1
            for k = 0..size(im, 2) - 1
                !kernel_transform enable="sharedmemcaching"
                !kernel_arg name=y; type="inout"; access="shared"; op="+="; cache_slices=y[:]; numel=256
                v = im[m, n, k]
                y[v] += 1
            endfor
        endfor
    endfor
end

im = zeros(16, 16, 3)
for m = 0..15
    for n = 0..15
        for k = 0..2
            im[m, n, k] = mod(m * m * 7 + n * 13 + k * 50, 200)
        end
    end
end
expected = zeros(256)
for m = 0..15
    for n = 0..15
        for k = 0..2
            expected[im[m, n, k]] = expected[im[m, n, k]] + 1
        end
    end
end
h1 = hist_naive(im)
print sum(h1)
print sum(abs(h1 - expected)) == 0
h2 = hist_shared(im)
print sum(abs(h2 - expected)) == 0
h3 = hist_loop(im)
print sum(abs(h3 - expected)) == 0
print max(expected) > 1
