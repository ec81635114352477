% dtcwt.q: Blazar's bundled dual-tree complex wavelet transform (imports
% multirestransforms.q for the filter-bank levels).
%
% filtercoeff_farras(): the first-stage filters, Abdelnour and Selesnick's nearly
%   symmetric orthogonal ("Farras") filters aligned for the dual tree, as a 4 x 10 mat
%   of rows [lowpass tree 1; highpass tree 1; lowpass tree 2; highpass tree 2] (the
%   analysis filters of the published FSfarras set).
% filtercoeff_dualfilt(): the filters of the later stages, Kingsbury's 10-tap q-shift
%   pair as published in the dualfilt1 set (8 decimals), in the same layout.
%   Each row pair is an orthonormal two-channel filter bank (checked when the module was
%   written: sum h[k] h[k + 2m] = delta(m), to 1e-14 and 4e-9).
% w = dtcwt2d(x, w1, w2, J): the J-level 2-D dual-tree complex wavelet transform of an
%   M x N mat (both divisible by 2^J), w1 the first-stage and w2 the later-stage filters.
%   Four separable orthogonal DWTs run, tree a on the columns and tree b on the rows
%   (hh, gg, gh, hg; h = tree 1, g = tree 2), each a filter-bank level as build_dwt's
%   (multirestransforms.q) with the filter reversed (a convolution, as the published
%   dual tree) and the Mallat layout. They are combined into two complex M x N images,
%   w[:, :, 0] = ((hh - gg) + i (gh + hg)) / (2 sqrt(2)) and
%   w[:, :, 1] = ((hh + gg) + i (gh - hg)) / (2 sqrt(2)):
%   the subbands of level l (0-based) lie where build_dwt's do, two complex orientations
%   per DWT subband (six per level), and the lowpass corner holds the combined lowpass.
%   The transform is a tight frame: sum(abs(w).^2) = sum(x.^2).
% x = idtcwt2d(w, w1, w2, J): its adjoint, which is its inverse.
% [S, S_H] = build_dtcwt(w1, w2, J): the pair as functions, S(x) = dtcwt2d(x, w1, w2, J).
import "multirestransforms.q"

% filtercoeff_farras()
%
% The first-stage filters of the dual-tree complex wavelet transform (Abdelnour and
% Selesnick's "Farras" filters) as a 4×10 mat: lowpass and highpass of tree 1, then of
% tree 2.
%
% Example:
%     print size(filtercoeff_farras())
% Output:
%     [4,10]
function w = filtercoeff_farras()
    a = 0.08838834764832
    b = 0.69587998903400
    c = 0.01122679215254
    w = [[0, -a, a, b, b, a, -a, c, c, 0], _
        [0, -c, c, a, a, -b, b, -a, -a, 0], _
        [c, c, -a, a, b, b, a, -a, 0, 0], _
        [0, 0, -a, -a, b, -b, a, a, c, -c]]
end

% filtercoeff_dualfilt()
%
% The later-stage filters of the dual-tree complex wavelet transform (Kingsbury's 10-tap
% q-shift pair), in the layout of `filtercoeff_farras`.
%
% Example:
%     print size(filtercoeff_dualfilt())
% Output:
%     [4,10]
function w = filtercoeff_dualfilt()
    p = 0.03516384
    q = 0.08832942
    r = 0.23389032
    s = 0.76027237
    t = 0.58751830
    u = 0.11430184
    w = [[p, 0, -q, r, s, t, 0, -u, 0, 0], _
        [0, 0, -u, 0, t, -s, r, q, 0, -p], _
        [0, 0, -u, 0, t, s, r, -q, 0, p], _
        [-p, 0, q, r, -s, t, 0, -u, 0, 0]]
end

% Row k of a filter set, reversed.
% internal
function h = dtcwt_filter(f : mat, k : int)
    h = f[k, size(f, 1) - 1..-1..0]
end

% Level l of one tree: columns with tree a, rows with tree b (0 or 1).
% internal
function [] = dtcwt_level(y : mat, t : mat, f : mat, a : int, b : int, m : int, _
        n : int, inverse)
    hc = dtcwt_filter(f, 2 * a)
    gc = dtcwt_filter(f, 2 * a + 1)
    hr = dtcwt_filter(f, 2 * b)
    gr = dtcwt_filter(f, 2 * b + 1)
    if inverse
        idwt2_level(y, t, hc, gc, hr, gr, m, n)
    else
        dwt2_level(y, t, hc, gc, hr, gr, m, n)
    end
end

% internal
function y = dtcwt_tree(x : mat, w1 : mat, w2 : mat, a : int, b : int, J : int, inverse)
    y = copy(x)
    t = copy(x)
    for k = 0..J - 1
        l = inverse ? J - 1 - k : k
        f = l == 0 ? w1 : w2
        dtcwt_level(y, t, f, a, b, int(size(x, 0) / 2^l), int(size(x, 1) / 2^l), inverse)
    end
end

% internal
function [] = dtcwt_check(x, w1, w2, J, who : string)
    if ndims(x) != 2
        error(sprintf("%s: the transform takes a mat", who))
    end
    if size(w1, 0) != 4 || size(w2, 0) != 4
        error(sprintf("%s: filter sets are 4-row mats (filtercoeff_farras, filtercoeff_dualfilt)", who))
    end
    dwt_check(x, int(J), who)
end

% dtcwt2d(x, w1, w2, J)
%
% The J-level 2-D dual-tree complex wavelet transform of an M×N mat (both divisible by
% 2^J), w1 the first-stage and w2 the later-stage filters: an M×N×2 complex cube holding
% six oriented subbands per level. It is a tight frame: the energy of x is kept.
%
% Example:
%     x = reshape(0..63, [8, 8]) / 10
%     w = dtcwt2d(x, filtercoeff_farras(), filtercoeff_dualfilt(), 2)
%     print size(w), " ", abs(sum(abs(w) .^ 2) - sum(x .^ 2)) < 0.01
% Output:
%     [8,8,2] 1
function w = dtcwt2d(x, w1, w2, J)
    dtcwt_check(x, w1, w2, J, "dtcwt2d")
    hh = dtcwt_tree(x, w1, w2, 0, 0, int(J), 0)
    gg = dtcwt_tree(x, w1, w2, 1, 1, int(J), 0)
    gh = dtcwt_tree(x, w1, w2, 1, 0, int(J), 0)
    hg = dtcwt_tree(x, w1, w2, 0, 1, int(J), 0)
    s = 1 / (2 * sqrt(2))
    w = complex(zeros(size(x, 0), size(x, 1), 2), zeros(size(x, 0), size(x, 1), 2))
    w[:, :, 0] = complex(s * (hh - gg), s * (gh + hg))
    w[:, :, 1] = complex(s * (hh + gg), s * (gh - hg))
end

% idtcwt2d(w, w1, w2, J)
%
% The inverse of `dtcwt2d` (its adjoint): the image from its dual-tree coefficients.
%
% Example:
%     x = reshape(0..63, [8, 8]) / 10
%     [f1, f2] = [filtercoeff_farras(), filtercoeff_dualfilt()]
%     y = idtcwt2d(dtcwt2d(x, f1, f2, 2), f1, f2, 2)
%     print max(abs(y - x)) < 1e-4
% Output:
%     1
function x = idtcwt2d(w, w1, w2, J)
    if ndims(w) != 3 || size(w, 2) != 2
        error("idtcwt2d: expects the M x N x 2 coefficients of dtcwt2d")
    end
    z1 = w[:, :, 0]
    z2 = w[:, :, 1]
    dtcwt_check(real(z1), w1, w2, J, "idtcwt2d")
    s = 1 / (2 * sqrt(2))
    x = dtcwt_tree(s * (real(z1) + real(z2)), w1, w2, 0, 0, int(J), 1)
    x += dtcwt_tree(s * (real(z2) - real(z1)), w1, w2, 1, 1, int(J), 1)
    x += dtcwt_tree(s * (imag(z1) + imag(z2)), w1, w2, 1, 0, int(J), 1)
    x += dtcwt_tree(s * (imag(z1) - imag(z2)), w1, w2, 0, 1, int(J), 1)
end

% [S, S_H] = build_dtcwt(w1, w2, J)
%
% The dual-tree transform and its inverse as a pair of functions: S(x) = dtcwt2d(x, w1,
% w2, J), S_H(w) = idtcwt2d(w, w1, w2, J).
%
% Example:
%     [S, S_H] = build_dtcwt(filtercoeff_farras(), filtercoeff_dualfilt(), 1)
%     x = ones(4, 4)
%     print max(abs(S_H(S(x)) - x)) < 1e-4
% Output:
%     1
function [S, S_H] = build_dtcwt(w1, w2, J)
    S = x -> dtcwt2d(x, w1, w2, J)
    S_H = w -> idtcwt2d(w, w1, w2, J)
end
