% multirestransforms.q: Blazar's bundled multiresolution-transform module.
%
% [S, S_H] = build_dwt(filter, J): the J-level orthogonal 2-D discrete wavelet transform
% of a mat (or of each slice x[:, :, k] of a cube) as a pair of functions: w = S(x) and
% x = S_H(w). filter is a Daubechies filter by name, "db1" ("haar") ... "db10", or the
% scaling filter h itself as a vec of even length. Its rows and columns must be
% divisible by 2^J. Definition, per level on the top-left m x n block (m = rows / 2^l,
% n = columns / 2^l), rows first, then columns, with periodic extension:
%     low[j]  = sum over k of h[k] x[mod(2j + k, n)]       (j = 0 .. n/2 - 1)
%     high[j] = sum over k of g[k] x[mod(2j + k, n)],   g[k] = (-1)^k h[L - 1 - k]
% stored as [low, high] along the row (columns), then along the column (rows), so each
% level leaves LL in the top-left quarter of its block, HL (high along the rows) top
% right, LH bottom left and HH bottom right; the next level transforms LL. With an
% orthonormal h the transform is orthogonal, so S_H, its adjoint, is its inverse:
% S_H(S(x)) = x and sum(S(x).^2) = sum(x.^2). The Daubechies filters are the
% minimum-phase scaling filters of N vanishing moments (2N taps, sum sqrt(2)), computed
% by spectral factorisation (db2 = [1+sqrt(3), 3+sqrt(3), 3-sqrt(3), 1-sqrt(3)] / (4 sqrt(2))).
%
% This module also brings the other multiresolution transforms: it imports dtcwt.q
% (dtcwt2d, idtcwt2d, build_dtcwt, dtcwt3d_untiled, idtcwt3d_untiled and the filter
% tables filtercoeff_farras, filtercoeff_dualfilt, filtercoeff_selcw) and steerable.q
% (steerable_forward, steerable_inverse, build_steerable, build_stp), and defines the
% constant db8 (the 16-tap Daubechies scaling filter, dwt_filter("db8")), so that
% build_dwt(db8, J) works as published code writes it.
%
% [S, S_H] = build_energyweighted_dst2d(sz, K, J): Blazar's reading of the band-limited
% discrete shearlet transform with energy weighting (the published definition was not
% available): an undecimated frequency-domain frame of J scales and K orientations,
% on the DFT grid of an M x N image (w = (wy, wx) in [-pi, pi), r = |w|, t = atan2(wy,
% wx)):
%     L_j = cos(pi/2 clamp(log2(r / pi) + j + 1, 0, 1))  (1 below pi / 2^(j+1), 0 above
%           pi / 2^j), L_-1 = 1,  B_j = sqrt(L_{j-1}^2 - L_j^2)
%     F_jk = B_j |A_k|, A_k the steerable pyramid's angular masks (sum A_k^2 = 1),
%     made even on the DFT grid: F_jk <- sqrt((F_jk(w)^2 + F_jk(-w)^2) / 2)
% so that sum over j, k of F_jk^2 + L_{J-1}^2 = 1. S(x) is a cell of J + 1 entries:
% w[j][k] = real(ifft2(F_jk fft2(x))) / e_jk (j < J, k < K), each M x N, e_jk =
% sqrt(mean(F_jk^2)) (the energy weight: white noise of variance s^2 gives every band
% variance s^2), and w[J] = real(ifft2(L_{J-1} fft2(x))). S_H(w) = real(ifft2(sum of
% F_jk fft2(e_jk w[j][k]) + L_{J-1} fft2(w[J]))) inverts S exactly (S_H(S(x)) = x).
%
% c = complex_orthogonal_wavelet(w): Blazar's reading of the published name: the complex
% filters of a dual-tree filter table w (2 rows, h1 and h2 lowpass; or 4 rows [h1; g1;
% h2; g2]) as a 2 x L cmat [(h1 + i h2) / sqrt(2); (g1 + i g2) / sqrt(2)], each highpass
% g the alternating flip of its lowpass. Each row has unit energy.
import "dtcwt.q"
import "steerable.q"

db8 = dwt_filter("db8")

% dwt_filter(filter)
%
% The scaling filter h of a Daubechies wavelet by name, "db1" ("haar") to "db10" (2N
% taps summing to sqrt(2)), or the vec given, checked.
%
% Example:
%     h = dwt_filter("db2")
%     print numel(h), " ", abs(sum(h) - sqrt(2)) < 1e-5
% Output:
%     4 1
function h = dwt_filter(filter)
    if type(filter, "string")
        match filter with
        | "db1" ->
            h = [0.70710678118654757, 0.70710678118654757]
        | "haar" ->
            h = [0.70710678118654757, 0.70710678118654757]
        | "db2" ->
            h = [0.48296291314453416, 0.83651630373780794, 0.22414386804201339,
                -0.1294095225512604]
        | "db3" ->
            h = [0.33267055295008258, 0.80689150931109244, 0.45987750211849149,
                -0.13501102001025461, -0.085441273882026686, 0.035226291885709526]
        | "db4" ->
            h = [0.23037781330889645, 0.71484657055291556, 0.63088076792985903,
                -0.027983769416859594, -0.18703481171909306, 0.030841381835560629,
                0.032883011666885176, -0.010597401785069018]
        | "db5" ->
            h = [0.16010239797419298, 0.60382926979718998, 0.72430852843777327,
                0.13842814590132069, -0.24229488706638228, -0.032244869584638472,
                0.077571493840045719, -0.0062414902127982909, -0.012580751999082004,
                0.0033357252854737751]
        | "db6" ->
            h = [0.1115407433501094, 0.49462389039845278, 0.75113390802109492,
                0.31525035170919768, -0.22626469396543947, -0.12976686756726169,
                0.097501605587323112, 0.027522865530305786, -0.031582039317485974,
                0.00055384220116150437, 0.0047772575109455073, -0.0010773010853084792]
        | "db7" ->
            h = [0.077852054085009198, 0.39653931948191734, 0.72913209084623498,
                0.4697822874051929, -0.14390600392856517, -0.22403618499387495,
                0.071309219266830523, 0.080612609151083217, -0.0380299369350144,
                -0.016574541630666881, 0.01255099855609984, 0.00042957797292136017,
                -0.0018016407040474935, 0.00035371379997452051]
        | "db8" ->
            h = [0.054415842243103911, 0.31287159091429939, 0.67563073629728865,
                0.58535468365420606, -0.015829105256348782, -0.28401554296154591,
                0.00047248457391371111, 0.12874742662047869, -0.017369301001807138,
                -0.044088253930794491, 0.013981027917398314, 0.0087460940474057853,
                -0.0048703529934515568, -0.00039174037337694586, 0.00067544940645056792,
                -0.00011747678412476924]
        | "db9" ->
            h = [0.038077947363878289, 0.24383467461258998, 0.60482312369011026,
                0.65728807805129974, 0.13319738582500773, -0.29327378327917408,
                -0.096840783222976068, 0.14854074933810629, 0.030725681479333591,
                -0.067632829061329447, 0.00025094711483176726, 0.022361662123679162,
                -0.004723204757751392, -0.0042815036824634268, 0.0018476468830562239,
                0.00023038576352319427, -0.00025196318894271023, 3.9347320316271562e-05]
        | "db10" ->
            h = [0.026670057900555384, 0.18817680007769033, 0.5272011889317223,
                0.68845903945359943, 0.28117234366057592, -0.24984642432731363,
                -0.19594627437737552, 0.12736934033579336, 0.093057364603573486,
                -0.071394147166394681, -0.029457536821874141, 0.033212674059341703,
                0.0036065535669566723, -0.010733175483330245, 0.0013953517470529811,
                0.0019924052951850583, -0.00068585669495970685, -0.00011646685512928447,
                9.3588670320069131e-05, -1.3264202894521156e-05]
        | _ ->
            error(sprintf("build_dwt: unknown filter %s (use db1 ... db10 or haar)", filter))
        end
    else
        h = filter
    end
end

% One level along the rows of the top-left m x n block: y[i, j] low, y[i, j + n/2] high.
function [] = __kernel__ dwt_rows_kernel(x : mat'unchecked, y : mat'unchecked, _
        h : vec'unchecked, g : vec'unchecked, n : int, half : int, pos : ivec2)
    lo = 0.0
    hi = 0.0
    for k = 0..numel(h) - 1
        v = x[pos[0], mod(2 * pos[1] + k, n)]
        lo += h[k] * v
        hi += g[k] * v
    end
    y[pos[0], pos[1]] = lo
    y[pos[0], pos[1] + half] = hi
end

% The same along the columns.
function [] = __kernel__ dwt_cols_kernel(x : mat'unchecked, y : mat'unchecked, _
        h : vec'unchecked, g : vec'unchecked, m : int, half : int, pos : ivec2)
    lo = 0.0
    hi = 0.0
    for k = 0..numel(h) - 1
        v = x[mod(2 * pos[0] + k, m), pos[1]]
        lo += h[k] * v
        hi += g[k] * v
    end
    y[pos[0], pos[1]] = lo
    y[pos[0] + half, pos[1]] = hi
end

% The adjoint of dwt_rows_kernel: x[t] gathers every low[j], high[j] with 2j + k = t
% (mod n).
function [] = __kernel__ idwt_rows_kernel(w : mat'unchecked, y : mat'unchecked, _
        h : vec'unchecked, g : vec'unchecked, n : int, half : int, pos : ivec2)
    acc = 0.0
    for k = 0..numel(h) - 1
        d = periodize(pos[1] - k, n)
        if mod(d, 2) == 0
            j = shr(d, 1)
            acc += h[k] * w[pos[0], j] + g[k] * w[pos[0], j + half]
        end
    end
    y[pos] = acc
end

function [] = __kernel__ idwt_cols_kernel(w : mat'unchecked, y : mat'unchecked, _
        h : vec'unchecked, g : vec'unchecked, m : int, half : int, pos : ivec2)
    acc = 0.0
    for k = 0..numel(h) - 1
        d = periodize(pos[0] - k, m)
        if mod(d, 2) == 0
            i = shr(d, 1)
            acc += h[k] * w[i, pos[1]] + g[k] * w[i + half, pos[1]]
        end
    end
    y[pos] = acc
end

% internal
function [] = dwt_check(x, J : int, who : string)
    if ndims(x) > 3
        error(sprintf("%s: the transform takes a mat or a cube", who))
    end
    step = 2^J
    if mod(size(x, 0), step) != 0 || mod(size(x, 1), step) != 0
        error(sprintf("%s: %d x %d is not divisible by 2^%d", who, size(x, 0), size(x, 1), J))
    end
end

% One analysis level on the top-left m x n block of y (t: scratch of y's size): rows
% with (hr, gr), then columns with (hc, gc).
% internal
function [] = dwt2_level(y : mat, t : mat, hc : vec, gc : vec, hr : vec, gr : vec, _
        m : int, n : int)
    parallel_do([m, int(n / 2)], y, t, hr, gr, n, int(n / 2), dwt_rows_kernel)
    parallel_do([int(m / 2), n], t, y, hc, gc, m, int(m / 2), dwt_cols_kernel)
end

% Its adjoint (and inverse, for orthonormal filter pairs).
% internal
function [] = idwt2_level(x : mat, t : mat, hc : vec, gc : vec, hr : vec, gr : vec, _
        m : int, n : int)
    parallel_do([m, n], x, t, hc, gc, m, int(m / 2), idwt_cols_kernel)
    parallel_do([m, n], t, x, hr, gr, n, int(n / 2), idwt_rows_kernel)
end

% internal
function y = dwt2_mat(x : mat, h : vec, g : vec, J : int)
    y = copy(x)
    t = copy(x)
    for l = 0..J - 1
        dwt2_level(y, t, h, g, h, g, int(size(x, 0) / 2^l), int(size(x, 1) / 2^l))
    end
end

% internal
function x = idwt2_mat(w : mat, h : vec, g : vec, J : int)
    x = copy(w)
    t = copy(w)
    for l = J - 1..-1..0
        idwt2_level(x, t, h, g, h, g, int(size(w, 0) / 2^l), int(size(w, 1) / 2^l))
    end
end

% Each slice of a cube, or the mat itself.
% internal
function y = dwt_slices(x, h : vec, g : vec, J : int, inverse)
    dwt_check(x, J, "build_dwt")
    if ndims(x) == 3
        y = zeros(size(x))
        for c = 0..size(x, 2) - 1
            if inverse
                y[:, :, c] = idwt2_mat(x[:, :, c], h, g, J)
            else
                y[:, :, c] = dwt2_mat(x[:, :, c], h, g, J)
            end
        end
    elseif inverse
        y = idwt2_mat(x, h, g, J)
    else
        y = dwt2_mat(x, h, g, J)
    end
end

% [S, S_H] = build_dwt(filter, J)
%
% The J-level orthogonal 2-D discrete wavelet transform (periodic extension, Mallat
% layout) of a mat or of each slice of a cube, as a pair of functions: w = S(x) and its
% inverse x = S_H(w). filter is a Daubechies name ("db1" to "db10", "haar") or a scaling
% filter; the sides must be divisible by 2^J.
%
% Example:
%     [S, S_H] = build_dwt("haar", 1)
%     w = S([[1, 1], [1, 1]])
%     print round(w)
%     print round(S_H(w))
% Output:
%     [ [2,0],
%       [0,0] ]
%     [ [1,1],
%       [1,1] ]
function [S, S_H] = build_dwt(filter, J)
    h = dwt_filter(filter)
    L = numel(h)
    if L < 2 || mod(L, 2) != 0
        error("build_dwt: the filter needs an even number of taps")
    end
    if J < 1
        error("build_dwt: J must be at least 1")
    end
    g = zeros(L)
    for k = 0..L - 1
        g[k] = (-1)^k * h[L - 1 - k]
    end
    levels = int(J)
    S = x -> dwt_slices(x, h, g, levels, 0)
    S_H = w -> dwt_slices(w, h, g, levels, 1)
end

% sqrt((F(w)^2 + F(-w)^2) / 2): a filter even on the DFT grid (F(-w) is F at the
% reflected index; the Nyquist row and column have no mirror image otherwise), so the
% bands of a real image are real; the sum of squares over the bands is unchanged.
% internal
function G = dst2d_even(F : mat)
    [M, N] = size(F)
    R = F[mod(M - (0..M - 1), M), mod(N - (0..N - 1), N)]
    G = sqrt((F .^ 2 + R .^ 2) / 2)
end

% The filters of build_energyweighted_dst2d: F (J cells of K mats), the weights e (a
% J x K mat) and the lowpass L.
% internal
function [F, e, L] = dst2d_filters(M : int, N : int, K : int, J : int)
    [lr, t] = steerable_grid(M, N)
    A = steerable_angular(t, K)
    prev = ones(M, N)
    F = cell(J)
    e = zeros(J, K)
    for j = 0..J - 1
        Lj = cos(pi / 2 * clamp(lr + j + 1, 0, 1))
        B = sqrt(max(prev .^ 2 - Lj .^ 2, 0))
        level = cell(K)
        for k = 0..K - 1
            level[k] = dst2d_even(B .* abs(A[k]))
            e[j, k] = sqrt(mean(level[k] .^ 2))
        end
        F[j] = level
        prev = Lj
    end
    L = prev
end

% internal
function w = dst2d_forward(x, F, e : mat, L : mat)
    if ndims(x) != 2 || size(x, 0) != size(L, 0) || size(x, 1) != size(L, 1)
        error(sprintf("build_energyweighted_dst2d: the transform was built for %d x %d images", _
            size(L, 0), size(L, 1)))
    end
    X = fft2(x)
    [J, K] = size(e)
    w = cell(J + 1)
    for j = 0..J - 1
        level = cell(K)
        for k = 0..K - 1
            level[k] = real(ifft2(X .* F[j][k])) / e[j, k]
        end
        w[j] = level
    end
    w[J] = real(ifft2(X .* L))
end

% internal
function x = dst2d_inverse(w, F, e : mat, L : mat)
    [J, K] = size(e)
    if !type(w, "vec[??]") || numel(w) != J + 1
        error(sprintf("build_energyweighted_dst2d: S_H expects the cell of %d entries that S gives", J + 1))
    end
    Y = fft2(w[J]) .* L
    for j = 0..J - 1
        for k = 0..K - 1
            Y = Y + fft2(w[j][k] * e[j, k]) .* F[j][k]
        end
    end
    x = real(ifft2(Y))
end

% [S, S_H] = build_energyweighted_dst2d(sz, K, J)
%
% Blazar's reading of the energy-weighted band-limited shearlet transform: an
% undecimated frequency-domain frame of J scales and K orientations (1 to 8) for M×N
% images (sz = [M, N]). w = S(x) is a cell: w[j][k] the band of scale j and orientation
% k (M×N, scaled so that white noise has the same variance in every band), w[J] the
% lowpass; x = S_H(w) inverts it exactly. The filters are in the module's header.
%
% Example:
%     [S, S_H] = build_energyweighted_dst2d([16, 16], 4, 2)
%     x = reshape(0..255, [16, 16]) / 16
%     w = S(x)
%     print numel(w), " ", numel(w[0]), " ", size(w[1][3]), " ", max(abs(S_H(w) - x)) < 1e-3
% Output:
%     3 4 [16,16] 1
function [S, S_H] = build_energyweighted_dst2d(sz, K, J)
    if numel(sz) < 2 || J < 1 || K < 1 || K > 8
        error("build_energyweighted_dst2d: needs sz = [M, N], J >= 1 and K between 1 and 8")
    end
    [F, e, L] = dst2d_filters(int(sz[0]), int(sz[1]), int(K), int(J))
    S = x -> dst2d_forward(x, F, e, L)
    S_H = w -> dst2d_inverse(w, F, e, L)
end

% complex_orthogonal_wavelet(w)
%
% Blazar's reading of the published name: the complex analysis filters of a dual-tree
% filter table w (`filtercoeff_farras`, `filtercoeff_dualfilt`, an entry of
% `filtercoeff_selcw`): a 2×L complex mat, row 0 (h1 + i h2) / sqrt(2) and row 1
% (g1 + i g2) / sqrt(2), each highpass the alternating flip of its lowpass.
%
% Example:
%     c = complex_orthogonal_wavelet(filtercoeff_dualfilt)
%     print size(c), " ", abs(sum(abs(c[0, :]) .^ 2) - 1) < 1e-6
% Output:
%     [2,10] 1
function c = complex_orthogonal_wavelet(w)
    f = dtcwt_bank(w, "complex_orthogonal_wavelet")
    c = complex(zeros(2, size(f, 1)), zeros(2, size(f, 1)))
    c[0, :] = complex(f[0, :], f[2, :]) / sqrt(2)
    c[1, :] = complex(f[1, :], f[3, :]) / sqrt(2)
end
