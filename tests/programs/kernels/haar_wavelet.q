% 2-D Haar transform with lifting, two scales, over the three channels of a cube: the
% forward kernels against a host implementation (exact on integer data), then the
% backward kernels reconstruct the input exactly.
% ==
% stdout {
% 1
% 1
% 1
% 91.25 -15.5
% }
function [] = haar_forward(x : cube, levels : int)
    function [] = __kernel__ rows_fw(src : cube'unchecked, dst : cube'unchecked, j : int, pos : ivec3)
        half = size(src, 1) / 2^(j + 1)
        if mod(pos[1], 2) == 0
            [a, b] = [src[pos], src[pos + [0, 1, 0]]]
            dst[pos[0], pos[1] / 2, pos[2]] = 0.5 * (a + b)
            dst[pos[0], pos[1] / 2 + half, pos[2]] = a - b
        endif
    endfunction
    function [] = __kernel__ cols_fw(src : cube'unchecked, dst : cube'unchecked, j : int, pos : ivec3)
        half = size(src, 0) / 2^(j + 1)
        if mod(pos[0], 2) == 0
            [a, b] = [src[pos], src[pos + [1, 0, 0]]]
            dst[pos[0] / 2, pos[1], pos[2]] = 0.5 * (a + b)
            dst[pos[0] / 2 + half, pos[1], pos[2]] = a - b
        endif
    endfunction
    tmp = zeros(size(x))
    for j = 0..levels - 1
        sz = [size(x, 0) / 2^j, size(x, 1) / 2^j, size(x, 2)]
        parallel_do(sz, x, tmp, j, rows_fw)
        parallel_do(sz, tmp, x, j, cols_fw)
    endfor
end

function [] = haar_backward(x : cube, levels : int)
    function [] = __kernel__ rows_bw(src : cube'unchecked, dst : cube'unchecked, j : int, pos : ivec3)
        half = size(src, 1) / 2^(j + 1)
        if mod(pos[1], 2) == 0
            a = src[pos[0], pos[1] / 2, pos[2]]
            b = src[pos[0], pos[1] / 2 + half, pos[2]]
            dst[pos] = a + 0.5 * b
            dst[pos + [0, 1, 0]] = a - 0.5 * b
        endif
    endfunction
    function [] = __kernel__ cols_bw(src : cube'unchecked, dst : cube'unchecked, j : int, pos : ivec3)
        half = size(src, 0) / 2^(j + 1)
        if mod(pos[0], 2) == 0
            a = src[pos[0] / 2, pos[1], pos[2]]
            b = src[pos[0] / 2 + half, pos[1], pos[2]]
            dst[pos] = a + 0.5 * b
            dst[pos + [1, 0, 0]] = a - 0.5 * b
        endif
    endfunction
    tmp = copy(x)
    for j = levels - 1..-1..0
        sz = [size(x, 0) / 2^j, size(x, 1) / 2^j, size(x, 2)]
        parallel_do(sz, x, tmp, j, cols_bw)
        parallel_do(sz, tmp, x, j, rows_bw)
    endfor
end

% Host reference: the same lifting steps with loops.
function y = host_forward(x, levels)
    y = copy(x)
    for j = 0..levels - 1
        m = int(size(x, 0) / 2^j)
        n = int(size(x, 1) / 2^j)
        t = copy(y)
        for r = 0..m - 1
            for c = 0..int(n / 2) - 1
                for ch = 0..size(x, 2) - 1
                    [a, b] = [y[r, 2 * c, ch], y[r, 2 * c + 1, ch]]
                    t[r, c, ch] = (a + b) / 2
                    t[r, c + int(n / 2), ch] = a - b
                end
            end
        end
        for r = 0..int(m / 2) - 1
            for c = 0..n - 1
                for ch = 0..size(x, 2) - 1
                    [a, b] = [t[2 * r, c, ch], t[2 * r + 1, c, ch]]
                    y[r, c, ch] = (a + b) / 2
                    y[r + int(m / 2), c, ch] = a - b
                end
            end
        end
    end
end

x = zeros(8, 16, 3)
for r = 0..7
    for c = 0..15
        for ch = 0..2
            x[r, c, ch] = mod(r * r * 13 + c * 29 + ch * 101 + r * c, 256)
        end
    end
end
original = copy(x)
expected = host_forward(x, 2)
haar_forward(x, 2)
print sum(abs(x - expected)) == 0
print sum(abs(x - original)) > 0
haar_backward(x, 2)
print sum(abs(x - original)) == 0
print expected[0, 0, 0], " ", expected[4, 1, 2]
