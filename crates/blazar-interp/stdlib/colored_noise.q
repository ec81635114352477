% colored_noise.q: Blazar's bundled colored-Gaussian-noise module: noise with a given
% power spectral density, made by filtering white Gaussian noise in the Fourier domain.
%
% PS = generate_psd(sz, f, variance, centered) samples a power spectral density on the
% frequency grid of an M x N DFT (sz = [M, N], or the first two entries of a longer
% size): PS[m, n] = f(u, v) with u = m / M, v = n / N in cycles per sample, taken in
% [-1/2, 1/2) (the DFT layout: u = (m - M * (m >= M/2)) / M). f is called once, with the
% two M x N frequency mats, and works element-wise. When variance > 0, PS is scaled so
% that mean(PS) = variance, which is the variance of the noise it gives; variance = 0
% keeps f's own scale. centered = 1 returns PS with the zero frequency moved to
% [floor(M/2), floor(N/2)] (for display; cgn_rand takes the DFT layout, centered = 0).
%
% psd_ct_ramp_spectrum_noise(u, v) = sqrt(u^2 + v^2): the ramp spectrum of the noise in
% a CT image reconstructed by filtered back-projection with the ramp filter |w| (the
% reconstruction's noise power grows linearly with the radial frequency).
%
% n = cgn_filter(w, PS) colours a white field w (a mat, or each slice of a cube):
% n = real(ifft2(sqrt(PS) .* fft2(w))). n = cgn_rand(sz, PS) is cgn_filter(randn(sz),
% PS): zero-mean Gaussian noise of size sz with power spectral density PS (an M x N mat
% in the DFT layout; sz = [M, N] or [M, N, C], each channel independent), whose variance
% is mean(PS).

% psd_ct_ramp_spectrum_noise(u, v)
%
% The ramp power spectral density sqrt(u^2 + v^2) of filtered back-projection CT noise,
% at frequencies u, v in cycles per sample (element-wise): a psd function for
% `generate_psd`.
%
% Example:
%     print psd_ct_ramp_spectrum_noise(0.3, 0.4)
% Output:
%     0.5
function P = psd_ct_ramp_spectrum_noise(u, v)
    P = sqrt(u .^ 2 + v .^ 2)
end

% The DFT frequencies of n samples, in cycles per sample, in [-1/2, 1/2).
% internal
function f = cgn_freqs(n : int)
    f = (0..n - 1) / n
    f = f - (f >= 0.5)
end

% generate_psd(sz, f) · generate_psd(sz, f, variance) · generate_psd(sz, f, variance, centered)
%
% The power spectral density f(u, v) sampled on the grid of an M×N DFT (sz = [M, N]; u, v
% in cycles per sample in [-1/2, 1/2)), scaled to mean `variance` (1 by default; 0 keeps
% f's scale), in the DFT layout or, with centered = 1, with the zero frequency at
% [floor(M/2), floor(N/2)].
%
% Example:
%     PS = generate_psd([4, 4], psd_ct_ramp_spectrum_noise, 0, 0)
%     print PS[0, 0], " ", PS[0, 1], " ", PS[2, 2], " ", PS[3, 0]
%     print mean(generate_psd([4, 4], psd_ct_ramp_spectrum_noise, 2, 1))
% Output:
%     0 0.25 0.70710677 0.25
%     2
function PS = generate_psd(sz, f, variance, centered)
    if numel(sz) < 2
        error("generate_psd: the size is [M, N]")
    end
    M = int(sz[0])
    N = int(sz[1])
    [v, u] = meshgrid(cgn_freqs(N), cgn_freqs(M))
    PS = f(u, v)
    if any(size(PS, 0..1) != [M, N]) || ndims(PS) > 2
        error(sprintf("generate_psd: the psd function gave a %s for a %d x %d grid", _
            type(PS), M, N))
    end
    if any(PS < 0)
        error("generate_psd: a power spectral density cannot be negative")
    end
    if variance > 0
        m = mean(PS)
        if m == 0
            error("generate_psd: the psd is zero everywhere")
        end
        PS = PS * (variance / m)
    end
    if centered
        PS = circshift(PS, [floor(M / 2), floor(N / 2)])
    end
end

function PS = generate_psd(sz, f, variance)
    PS = generate_psd(sz, f, variance, 0)
end

function PS = generate_psd(sz, f)
    PS = generate_psd(sz, f, 1, 0)
end

% cgn_filter(w, PS)
%
% Colours the white field w (a mat, or each slice of a cube) with the power spectral
% density PS (size(w, 0..1), the DFT layout): real(ifft2(sqrt(PS) .* fft2(w))).
%
% Example:
%     w = [[1, 0], [0, 0]]
%     print cgn_filter(w, [[4, 0], [0, 0]])
% Output:
%     [ [0.5,0.5],
%       [0.5,0.5] ]
function n = cgn_filter(w, PS)
    if ndims(PS) > 2 || size(PS, 0) != size(w, 0) || size(PS, 1) != size(w, 1)
        error(sprintf("cgn_filter: the psd is %d x %d, the field %d x %d", size(PS, 0), _
            size(PS, 1), size(w, 0), size(w, 1)))
    end
    if any(PS < 0)
        error("cgn_filter: a power spectral density cannot be negative")
    end
    H = sqrt(PS)
    if ndims(w) == 3
        n = zeros(size(w))
        for c = 0..size(w, 2) - 1
            n[:, :, c] = real(ifft2(H .* fft2(w[:, :, c])))
        end
    else
        n = real(ifft2(H .* fft2(w)))
    end
end

% cgn_rand(sz, PS)
%
% Zero-mean colored Gaussian noise of size sz ([M, N] or [M, N, C], channels
% independent) with power spectral density PS (an M×N mat in the DFT layout, as
% `generate_psd` gives it): white Gaussian noise filtered by sqrt(PS). Its variance is
% mean(PS).
%
% Example:
%     PS = generate_psd([128, 128], psd_ct_ramp_spectrum_noise, 4, 0)
%     n = cgn_rand([128, 128, 2], PS)
%     print size(n), " ", abs(mean(n .^ 2) - 4) < 0.5
% Output:
%     [128,128,2] 1
function n = cgn_rand(sz, PS)
    n = cgn_filter(randn(sz), PS)
end
