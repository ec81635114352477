% steerable.q: Blazar's bundled steerable-pyramid module.
%
% The steerable pyramid (Simoncelli and Freeman), built in the frequency domain as
% pyrtools' SteerablePyramidFreq builds it: a tight frame, so the inverse reconstructs
% the image exactly (to rounding).
%   p = steerable_forward(x, J, K)   x a mat with sides divisible by 2^J; J levels of K
%                                    orientations (K = 1 .. 8)
%   x = steerable_inverse(p)
%   [S, S_H] = build_steerable(J, K) the two as functions: p = S(x), x = S_H(p)
% p is an object with fields highpass (a mat the size of x), bands (a cell of J cells;
% bands[j][k] the real band of level j and orientation k, (M / 2^j) x (N / 2^j)),
% lowpass ((M / 2^J) x (N / 2^J)), levels J and orientations K.
% Definition, with X = fft2(x), w = (wy, wx) the DFT frequencies in [-pi, pi), r = |w|,
% lr = log2(r / pi), t = atan2(wy, wx) and c(u) = clamp(u, 0, 1):
%   H0 = sin(pi/2 c(lr + 1)), L0 = cos(pi/2 c(lr + 1))        (first split at pi/2..pi)
%   Hb = sin(pi/2 c(lr + 2)), Lb = cos(pi/2 c(lr + 2))        (each level: pi/4..pi/2)
%   A_k = a cos(t - pi k / K)^(K-1), a^2 = 4^(K-1) (K-1)!^2 / (K (2K-2)!), so that
%   sum over k of A_k^2 = 1
%   highpass = real(ifft2(X H0)); Y = X L0; for each level j:
%       bands[j][k] = real(ifft2(Y Hb A_k (-i)^(K-1)))
%       Y = the central half of Y Lb in each dimension (frequencies |w| < pi/2), which
%           is the next level's spectrum (its own frequencies twice as large)
%   lowpass = real(ifft2(Y)).
% Each band's spectrum is Hermitian (A_k(-w) = (-1)^(K-1) A_k(w)), so the bands are real
% and fft2 gives their spectra back; the inverse sums each spectrum times its filter's
% conjugate and pads Y back level by level: H0^2 + L0^2 = 1 and Hb^2 sum A_k^2 + Lb^2 = 1
% make it exact.

% The frequency grid of an M x N DFT: [lr, t] as above (lr at w = 0 is -Inf).
% internal
function [lr, t] = steerable_grid(M : int, N : int)
    [kx, ky] = meshgrid(0..N - 1, 0..M - 1)
    wx = 2 * pi * (mod(kx + N / 2, N) - N / 2) / N
    wy = 2 * pi * (mod(ky + M / 2, M) - M / 2) / M
    lr = log2(sqrt(wx .^ 2 + wy .^ 2) / pi)
    t = atan2(wy, wx)
end

% (-i)^n for an integer n.
% internal
function c = steerable_minus_i_pow(n : int)
    match mod(n, 4) with
    | 0 -> c = complex(1, 0)
    | 1 -> c = complex(0, -1)
    | 2 -> c = complex(-1, 0)
    | _ -> c = complex(0, 1)
    end
end

% The angular masks A_k (a cell of K mats) on the grid's angles t.
% internal
function A = steerable_angular(t, K : int)
    order = K - 1
    a2 = 4^order * factorial_of(order)^2 / (K * factorial_of(2 * order))
    A = cell(K)
    for k = 0..K - 1
        A[k] = sqrt(a2) * cos(t - pi * k / K) .^ order
    end
end

% internal
function f = factorial_of(n : int)
    f = 1
    for i = 2..n
        f = f * i
    end
end

% The central half (|w| < pi/2) of an unshifted M x N spectrum, and its inverse.
% internal
function Z = steerable_crop(Y)
    [M, N] = size(Y)
    c = circshift(Y, [int(M / 4), int(N / 4)])
    Z = circshift(c[0..int(M / 2) - 1, 0..int(N / 2) - 1], [-int(M / 4), -int(N / 4)])
end

% internal
function Y = steerable_pad(Z)
    [m, n] = size(Z)
    c = circshift(Z, [int(m / 2), int(n / 2)])
    Y = complex(zeros(2 * m, 2 * n), zeros(2 * m, 2 * n))
    Y[int(m / 2)..int(m / 2) + m - 1, int(n / 2)..int(n / 2) + n - 1] = c
    Y = circshift(Y, [-m, -n])
end

% internal
function [] = steerable_check(M : int, N : int, J : int, K : int, who : string)
    if J < 1 || K < 1 || K > 8
        error(sprintf("%s: J must be at least 1 and K between 1 and 8", who))
    end
    if mod(M, 2^J) != 0 || mod(N, 2^J) != 0
        error(sprintf("%s: the image sides (%dx%d) must be divisible by 2^J = %d", _
            who, M, N, 2^J))
    end
end

% steerable_forward(x, J, K)
%
% The steerable pyramid of a mat (sides divisible by 2^J) with J levels of K
% orientations (1 to 8), built in the frequency domain: an object with `highpass`,
% `bands` (bands[j][k]), `lowpass`, `levels` and `orientations`. A tight frame:
% `steerable_inverse` reconstructs x.
%
% Example:
%     p = steerable_forward(ones(8, 8), 2, 4)
%     print p.levels, " ", p.orientations, " ", size(p.bands[1][0]), " ", size(p.lowpass)
% Output:
%     2 4 [4,4] [2,2]
function p = steerable_forward(x, J : int, K : int)
    if !type(x, "mat")
        error("steerable_forward: expected a mat")
    end
    [M, N] = size(x)
    steerable_check(M, N, J, K, "steerable_forward")
    X = fft2(x)
    [lr, t] = steerable_grid(M, N)
    c = clamp(lr + 1, 0, 1)
    p = object()
    p.levels = J
    p.orientations = K
    p.highpass = real(ifft2(X .* sin(pi / 2 * c)))
    Y = X .* cos(pi / 2 * c)
    s = steerable_minus_i_pow(K - 1)
    bands = cell(J)
    for j = 0..J - 1
        [m, n] = size(Y)
        [lr, t] = steerable_grid(m, n)
        cb = clamp(lr + 2, 0, 1)
        A = steerable_angular(t, K)
        level = cell(K)
        for k = 0..K - 1
            level[k] = real(ifft2(Y .* (sin(pi / 2 * cb) .* A[k]) * s))
        end
        bands[j] = level
        Y = steerable_crop(Y .* cos(pi / 2 * cb))
    end
    p.bands = bands
    p.lowpass = real(ifft2(Y))
end

% steerable_inverse(p)
%
% The image a steerable pyramid `p` (from `steerable_forward`) represents.
%
% Example:
%     x = reshape(0..63, [8, 8]) / 8
%     y = steerable_inverse(steerable_forward(x, 1, 2))
%     print max(abs(y - x)) < 1e-3
% Output:
%     1
function x = steerable_inverse(p)
    J = int(p.levels)
    K = int(p.orientations)
    s = conj(steerable_minus_i_pow(K - 1))
    Y = fft2(p.lowpass)
    for j = J - 1..-1..0
        Y = steerable_pad(Y)
        [m, n] = size(Y)
        [lr, t] = steerable_grid(m, n)
        cb = clamp(lr + 2, 0, 1)
        A = steerable_angular(t, K)
        Y = Y .* cos(pi / 2 * cb)
        level = p.bands[j]
        for k = 0..K - 1
            Y = Y + fft2(level[k]) .* (sin(pi / 2 * cb) .* A[k]) * s
        end
    end
    [M, N] = size(p.highpass)
    [lr, t] = steerable_grid(M, N)
    c = clamp(lr + 1, 0, 1)
    Y = Y .* cos(pi / 2 * c) + fft2(p.highpass) .* sin(pi / 2 * c)
    x = real(ifft2(Y))
end

% [S, S_H] = build_steerable(J, K)
%
% The steerable pyramid of J levels and K orientations and its inverse as a pair of
% functions: p = S(x), x = S_H(p).
%
% Example:
%     [S, S_H] = build_steerable(1, 4)
%     x = ones(4, 4)
%     print max(abs(S_H(S(x)) - x)) < 1e-3
% Output:
%     1
function [S, S_H] = build_steerable(J : int, K : int)
    S = x -> steerable_forward(x, J, K)
    S_H = p -> steerable_inverse(p)
end

% The pyramid p of steerable_forward as a cell: p.bands[0] .. p.bands[J - 1], then the
% lowpass, then the highpass.
% internal
function w = stp_cells(p)
    J = int(p.levels)
    w = cell(J + 2)
    for j = 0..J - 1
        w[j] = p.bands[j]
    end
    w[J] = p.lowpass
    w[J + 1] = p.highpass
end

% The cell of stp_cells back as a pyramid of J levels and K orientations.
% internal
function p = stp_pyramid(w, J : int, K : int)
    if !type(w, "vec[??]") || numel(w) != J + 2
        error(sprintf("build_stp: S_H expects the cell of %d entries that S gives", J + 2))
    end
    p = object()
    p.levels = J
    p.orientations = K
    bands = cell(J)
    for j = 0..J - 1
        bands[j] = w[j]
    end
    p.bands = bands
    p.lowpass = w[J]
    p.highpass = w[J + 1]
end

% [S, S_H] = build_stp(sz, K, J)
%
% The steerable pyramid (`steerable_forward`) of J levels and K orientations for
% images of size sz ([M, N], sides divisible by 2^J), as a pair of functions on cells:
% w = S(x) is a cell of J + 2 entries, w[j][k] (j < J) the band of level j and
% orientation k, w[J] the lowpass and w[J + 1] the highpass residual, so that
% `lincell(w)` lists the oriented bands first; x = S_H(w) inverts it. (Blazar's reading
% of the published name: the argument order sz, K, J and this cell layout are its own.)
%
% Example:
%     [S, S_H] = build_stp([8, 8], 4, 2)
%     x = reshape(0..63, [8, 8]) / 8
%     w = S(x)
%     print numel(w), " ", numel(lincell(w)), " ", max(abs(S_H(w) - x)) < 1e-3
% Output:
%     4 10 1
function [S, S_H] = build_stp(sz, K, J)
    if numel(sz) < 2
        error("build_stp: the size is [M, N]")
    end
    M = int(sz[0])
    N = int(sz[1])
    levels = int(J)
    orientations = int(K)
    steerable_check(M, N, levels, orientations, "build_stp")
    S = x -> stp_forward(x, M, N, levels, orientations)
    S_H = w -> steerable_inverse(stp_pyramid(w, levels, orientations))
end

% internal
function w = stp_forward(x, M : int, N : int, J : int, K : int)
    if ndims(x) != 2 || size(x, 0) != M || size(x, 1) != N
        error(sprintf("build_stp: the transform was built for %d x %d images", M, N))
    end
    w = stp_cells(steerable_forward(x, J, K))
end
