% A separable 9-tap Gaussian blur (sigma 2) of an 8-bit image with clamped borders: a
% horizontal and a vertical kernel reading through 'clamped parameters, the weights a
% host vector. Checked against a direct 2-D convolution in host code, then rounded
% back into a uint8 image by a third kernel.
% ==
% stdout {
% 1
% 1
% 1
% mat[uint8]
% 1
% }
sigma = 2
w = exp(-((-4..4).^2) / (2 * sigma^2))
w = w / sum(w)
print abs(sum(w) - 1) < 1e-6

[M, N] = [14, 11]
src = zeros(M, N)
for r = 0..M - 1
    for c = 0..N - 1
        src[r, c] = mod(r * 41 + c * 67 + r * c * 13, 256)
    end
end
img = uint8(src)

function [] = __kernel__ blur_rows(x : mat[uint8]'clamped, y : mat, w : vec, pos : ivec2)
    acc = 0.0
    for k = -4..4
        acc += w[k + 4] * x[pos + [0, k]]
    endfor
    y[pos] = acc
endfunction
function [] = __kernel__ blur_cols(x : mat'clamped, y : mat, w : vec, pos : ivec2)
    acc = 0.0
    for k = -4..4
        acc += w[k + 4] * x[pos + [k, 0]]
    endfor
    y[pos] = acc
endfunction

tmp = zeros(M, N)
out = zeros(M, N)
parallel_do(size(tmp), img, tmp, w, blur_rows)
parallel_do(size(out), tmp, out, w, blur_cols)

expected = zeros(M, N)
for r = 0..M - 1
    for c = 0..N - 1
        acc = 0
        for a = -4..4
            for b = -4..4
                acc += w[a + 4] * w[b + 4] * src[clamp(r + a, 0, M - 1), clamp(c + b, 0, N - 1)]
            end
        end
        expected[r, c] = acc
    end
end
print max(abs(out - expected)) < 1e-3
% Blurring keeps the mean roughly and lowers the spread.
print max(out) - min(out) < max(src) - min(src)

out8 = uint8(zeros(M, N))
parallel_do(size(out8), out, out8, __kernel__ (x : mat, y : mat[uint8], pos : ivec2) -> y[pos] = round(x[pos]))
print type(out8)
ok = 1
for r = 0..M - 1
    for c = 0..N - 1
        ok = ok && out8[r, c] == round(expected[r, c])
    end
end
print ok
