% Rotation and scaling of a colour image: a nested kernel and a nested __device__
% bilinear interpolation returning a vec3 built from `img[i, j, 0..2]` vector reads;
% checked against the same interpolation written channel by channel in host code.
% ==
% stdout {
% 1
% 1
% 0 0 0
% 52 13 79
% }
function out = rotate_scale(img : cube, theta, s, tx, ty)
    function [q : vec3] = __device__ interpolate(im : cube'unchecked, p : vec2)
        i = floor(p)
        f = frac(p)
        if min(i) >= 0 && max(i - size(im, 0..1)) < -1
            q = im[i[0], i[1], 0..2] * (1 - f[0]) * (1 - f[1]) + _
                im[i[0], i[1] + 1, 0..2] * (1 - f[0]) * f[1] + _
                im[i[0] + 1, i[1], 0..2] * f[0] * (1 - f[1]) + _
                im[i[0] + 1, i[1] + 1, 0..2] * f[0] * f[1]
        else
            q = [0., 0., 0.]
        endif
    endfunction
    function [] = __kernel__ warp(dst : cube'unchecked, src : cube'unchecked, A : mat'unchecked'const, t : vec2, pos : ivec2)
        center = size(src, 0..1) / 2
        p = pos - center
        p = [A[0, 0] * p[0] + A[0, 1] * p[1], A[1, 0] * p[0] + A[1, 1] * p[1]] + center + t
        dst[pos[0], pos[1], 0..2] = interpolate(src, p)
    endfunction
    rad = theta * pi / 180
    A = [[cos(rad), -sin(rad)], [sin(rad), cos(rad)]] * 2^s
    out = zeros(size(img))
    parallel_do(size(out, 0..1), out, img, A, -[ty, tx], warp)
end

[M, N] = [9, 11]
img = zeros(M, N, 3)
for r = 0..M - 1
    for c = 0..N - 1
        img[r, c, 0] = 10 * r + c
        img[r, c, 1] = mod(7 * r + 3 * c, 17)
        img[r, c, 2] = 100 - r * c
    end
end
theta = 30
sc = 0.25
[tx, ty] = [0.25, -0.5]
out = rotate_scale(img, theta, sc, tx, ty)

% The same transform in host code, one channel at a time.
rad = theta * pi / 180
g = 2^sc
t = [-ty, -tx]
expected = zeros(M, N, 3)
ctr = [M / 2, N / 2]
inside = 0
for r = 0..M - 1
    for c = 0..N - 1
        [pr, pc] = [r - ctr[0], c - ctr[1]]
        u = g * (cos(rad) * pr - sin(rad) * pc) + ctr[0] + t[0]
        v = g * (sin(rad) * pr + cos(rad) * pc) + ctr[1] + t[1]
        [i0, i1] = [floor(u), floor(v)]
        [f0, f1] = [u - i0, v - i1]
        if i0 >= 0 && i1 >= 0 && i0 < M - 1 && i1 < N - 1
            inside += 1
            for ch = 0..2
                expected[r, c, ch] = img[i0, i1, ch] * (1 - f0) * (1 - f1) + _
                    img[i0, i1 + 1, ch] * (1 - f0) * f1 + _
                    img[i0 + 1, i1, ch] * f0 * (1 - f1) + _
                    img[i0 + 1, i1 + 1, ch] * f0 * f1
            end
        end
    end
end
print max(abs(out - expected)) < 1e-3
print inside > 20 && inside < M * N
print out[0, 0, 0], " ", out[0, 0, 1], " ", out[0, 0, 2]
print round(out[4, 5, 0]), " ", round(out[4, 5, 1]), " ", round(out[4, 5, 2])
