% imfilter.q: Blazar's bundled linear-filtering module.
%
% imfilter(x, h, c, mode) filters every slice x[:, :, k] of a mat or cube with the mat
% kernel h by 2-D correlation, as MATLAB's imfilter does by default (the kernel is not
% flipped):
%     y[i, j, k] = sum over m, n of h[m, n] * x[i + m - c[0], j + n - c[1], k]
% c is the kernel's origin, 0-based ([row, column], an ivec2 or a vec; the centre of an
% odd kernel is ceil(size(h) / 2) - 1). mode says how x is read outside its borders, as
% Quasar's access modifiers: "mirror" (-1 reads 1, N reads N-1), "circular" (periodic),
% "clamped" (the nearest border pixel) or "zero" (zeros outside). The result has the
% shape of x.
% A kernel of 25 or more taps whose rank is 1 (a Gaussian, a box) runs as a row pass
% then a column pass, which gives the same sums (each boundary mode extends rows and
% columns independently) in m + n instead of m n operations per pixel.
% imfilter(x, h) uses the centred origin ceil(size(h) / 2) - 1 and zero borders, as
% MATLAB's imfilter does by default.
%
% gaussian_filter(x, sigma, n, mode) smooths with the normalised Gaussian kernel
% exp(-(k - (n-1)/2)^2 / (2 sigma^2)) of n taps, as a row pass then a column pass.
% n = 0 picks n = 2 ceil(3 sigma) + 1. gaussian_filter(x, sigma, n) and
% gaussian_filter(x, sigma) use "clamped" borders (MATLAB's imgaussfilt replicates the
% border) and, for the latter, n = 0.

function [] = __kernel__ imfilter_mirror(x : cube'mirror, h : mat'unchecked, c0 : int, _
        c1 : int, y : cube'unchecked, pos : ivec3)
    acc = 0.0
    for m = 0..size(h, 0) - 1
        for n = 0..size(h, 1) - 1
            acc += h[m, n] * x[pos[0] + m - c0, pos[1] + n - c1, pos[2]]
        end
    end
    y[pos] = acc
end

function [] = __kernel__ imfilter_circular(x : cube'circular, h : mat'unchecked, _
        c0 : int, c1 : int, y : cube'unchecked, pos : ivec3)
    acc = 0.0
    for m = 0..size(h, 0) - 1
        for n = 0..size(h, 1) - 1
            acc += h[m, n] * x[pos[0] + m - c0, pos[1] + n - c1, pos[2]]
        end
    end
    y[pos] = acc
end

function [] = __kernel__ imfilter_clamped(x : cube'clamped, h : mat'unchecked, _
        c0 : int, c1 : int, y : cube'unchecked, pos : ivec3)
    acc = 0.0
    for m = 0..size(h, 0) - 1
        for n = 0..size(h, 1) - 1
            acc += h[m, n] * x[pos[0] + m - c0, pos[1] + n - c1, pos[2]]
        end
    end
    y[pos] = acc
end

function [] = __kernel__ imfilter_zero(x : cube'safe, h : mat'unchecked, c0 : int, _
        c1 : int, y : cube'unchecked, pos : ivec3)
    acc = 0.0
    for m = 0..size(h, 0) - 1
        for n = 0..size(h, 1) - 1
            acc += h[m, n] * x[pos[0] + m - c0, pos[1] + n - c1, pos[2]]
        end
    end
    y[pos] = acc
end

% h = u v (a column times a row) when its rank is 1, to 1e-6 of its largest entry:
% u is h's column through that entry, v its row divided by the entry.
% internal
function [u, v, ok] = imfilter_separate(h)
    p = 0
    q = 0
    for i = 0..size(h, 0) - 1
        for j = 0..size(h, 1) - 1
            if abs(h[i, j]) > abs(h[p, q])
                p = i
                q = j
            end
        end
    end
    u = h[:, q]
    v = h[p, :] / h[p, q]
    ok = h[p, q] != 0 && max(abs(h - u * v)) <= 1e-6 * abs(h[p, q])
end

% imfilter(x, h) · imfilter(x, h, c, mode)
%
% Filters every slice of a mat or cube x with the mat kernel h by 2-D correlation (h not
% flipped, as MATLAB's imfilter). c is the kernel's origin, 0-based [row, column]
% (default: the centre, ceil(size(h) / 2) - 1); mode is how x is read outside its
% borders: "mirror", "circular", "clamped" or "zero" (the default). The result has the
% shape of x.
%
% Example:
%     x = [[0, 0, 0], [0, 9, 0], [0, 0, 0]]
%     print imfilter(x, ones(3, 3) / 9)
% Output:
%     [ [1,1,1],
%       [1,1,1],
%       [1,1,1] ]
function y = imfilter(x, h, c, mode : string)
    if ndims(x) == 1
        % a vec as a 1 x N mat: kernels then read its rows through the access modifier
        % of a mat (a promoted vec's boundary reads are not per dimension yet)
        x = [x]
    end
    if numel(c) != 2
        error("imfilter: the origin c must be [row, column]")
    end
    c0 = int(c[0])
    c1 = int(c[1])
    if ndims(h) == 2 && size(h, 0) * size(h, 1) >= 25 && size(h, 0) > 1 && size(h, 1) > 1
        [u, v, ok] = imfilter_separate(h)
        if ok
            t = imfilter(x, reshape(v, [1, numel(v)]), [0, c1], mode)
            y = imfilter(t, reshape(u, [numel(u), 1]), [c0, 0], mode)
            return
        end
    end
    y = zeros(size(x))
    dims = [size(x, 0), size(x, 1), size(x, 2)]
    match mode with
    | "mirror" -> parallel_do(dims, x, h, c0, c1, y, imfilter_mirror)
    | "circular" -> parallel_do(dims, x, h, c0, c1, y, imfilter_circular)
    | "clamped" -> parallel_do(dims, x, h, c0, c1, y, imfilter_clamped)
    | "zero" -> parallel_do(dims, x, h, c0, c1, y, imfilter_zero)
    | _ -> error(sprintf("imfilter: unknown boundary mode %s (use mirror, circular, clamped or zero)", mode))
    end
end

function y = imfilter(x, h)
    y = imfilter(x, h, ceil(size(h) / 2) - 1, "zero")
end

% gaussian_filter(x, sigma) · gaussian_filter(x, sigma, n) · gaussian_filter(x, sigma, n, mode)
%
% Smooths x with the normalised Gaussian kernel of standard deviation sigma and n taps
% (n = 0, the default: 2 ceil(3 sigma) + 1), as a row pass then a column pass; borders
% as `imfilter`'s modes, "clamped" by default (as MATLAB's imgaussfilt).
%
% Example:
%     y = gaussian_filter(ones(5, 5) * 7, 1.0)
%     print max(abs(y - 7)) < 1e-5
% Output:
%     1
function y = gaussian_filter(x, sigma, n, mode : string)
    if sigma <= 0
        error("gaussian_filter: sigma must be positive")
    end
    taps = int(n)
    if taps <= 0
        taps = int(2 * ceil(3 * sigma) + 1)
    end
    g = exp(-((0..taps - 1) - (taps - 1) / 2).^2 / (2 * sigma^2))
    g = g / sum(g)
    o = ceil(taps / 2) - 1
    t = imfilter(x, reshape(g, [1, taps]), [0, o], mode)
    y = imfilter(t, reshape(g, [taps, 1]), [o, 0], mode)
end

function y = gaussian_filter(x, sigma, n)
    y = gaussian_filter(x, sigma, n, "clamped")
end

function y = gaussian_filter(x, sigma)
    y = gaussian_filter(x, sigma, 0, "clamped")
end
