% The denoising program of examples/denoise_pca.q as a golden program: this file is
% that example with this test block in front (crates/blazar-cli/tests/docs.rs checks
% that they agree), written as published Quasar denoising code is (system.q, imfilter.q
% and linalg.q imported, kernels launched with parallel_do, an SVD of the patch
% covariance, figures with titles, hold, legend and a linked view in main).
% Reference: NumPy 2.4.6 and SciPy 1.17.1 in float64, computed independently of Blazar
% when this test was written: the same image and noise (np.int64 arithmetic),
% scipy.ndimage.gaussian_filter(noisy, 1.0, mode="nearest", truncate=3.0), the 3600
% 5x5 patches as rows, C = Pc.T @ Pc / 3600 of the centred patches, np.linalg.svd(C),
% gains max(s - 400, 0) / s, R = Pc @ U @ diag(w) @ U.T + mean, each pixel the mean of
% the patches covering it, np.clip(0, 255); PSNR = 10 log10(255^2 / MSE):
% noisy 21.946282, gaussian 23.967438, patch PCA 28.960415; largest variances
% 70814.434, 5936.1124, 5154.4506; sum of the gains 6.6379888.
% ==
% tolerance { 1e-3 }
% stdout {
% PSNR noisy:    21.95 dB
% PSNR gaussian: 23.97 dB
% PSNR pca:      28.96 dB
% largest patch variances: [70814.434,5936.1124,5154.4506]
% sum of the Wiener gains: 6.6379888
% figure 1: wrote denoise_pca_figure1_clean.png
% figure 2: wrote denoise_pca_figure2_noisy.png (linked with figure 4)
% figure 3: wrote denoise_pca_figure3_gaussian.png
% figure 4: wrote denoise_pca_figure4_patch_PCA.png (linked with figure 2)
% figure 5: wrote denoise_pca_figure5_patch_spectrum.png, denoise_pca_figure5_patch_spectrum.svg
% }

% Denoising in the style of published Quasar code: a test image with added noise,
% smoothed by a Gaussian filter, then denoised in the PCA basis of its 5x5 patches
% (the eigenvectors of the patch covariance, found with an SVD, each coefficient
% shrunk by a Wiener gain), with figures of every stage and of the patch spectrum.
% Run: blazar run examples/denoise_pca.q   (writes denoise_pca_figure*.png next to it)

import "system.q"
import "imfilter.q"
import "linalg.q"

% A 64x64 test image with values 0..255: a ramp, a bright disc and a band of stripes.
function x : mat = test_image(M : int, N : int)
    x = zeros(M, N)
    for i = 0..M - 1
        for j = 0..N - 1
            v = 40 + 2 * i + j
            if (i - 32)^2 + (j - 40)^2 < 144
                v = 220
            elseif j >= 8 && j < 20 && mod(j, 4) < 2
                v = 30
            end
            x[i, j] = v
        end
    end
end

% Reproducible noise of standard deviation sigma: the sum of two uniform variables from
% quadratic congruences of the pixel index (the same numbers on every device, and easy
% to reproduce elsewhere), centred and scaled.
function n : mat = test_noise(M : int, N : int, sigma : scalar)
    k = reshape(0..M * N - 1, [M, N])
    u1 = mod(97 * k .* k + 31 * k + 7, 65521) / 65521
    u2 = mod(53 * k .* k + 11 * k + 3, 65519) / 65519
    n = sigma * sqrt(6) * (u1 + u2 - 1)
end

function p = psnr(x, y)
    p = 10 * log10(255^2 / mean((x - y).^2))
end

% Row k = i * nj + j of P holds the p x p patch whose top-left pixel is [i, j].
function [] = __kernel__ extract_patches(x : mat, P : mat, p : int, nj : int, pos : ivec2)
    k = pos[0] * nj + pos[1]
    for di = 0..p - 1
        for dj = 0..p - 1
            P[k, di * p + dj] = x[pos[0] + di, pos[1] + dj]
        end
    end
end

% Each pixel: the mean of the patches of R that cover it.
function [] = __kernel__ aggregate_patches(R : mat, y : mat, p : int, ni : int, nj : int, _
        pos : ivec2)
    acc = 0.0
    count = 0
    for di = 0..p - 1
        for dj = 0..p - 1
            i = pos[0] - di
            j = pos[1] - dj
            if i >= 0 && i < ni && j >= 0 && j < nj
                acc += R[i * nj + j, di * p + dj]
                count += 1
            end
        end
    end
    y[pos] = acc / count
end

% Patch-PCA denoising: patches centred on their mean, projected on the eigenvectors of
% their covariance, each coefficient scaled by max(lambda - sigma^2, 0) / lambda.
function [y, s, w] = pca_denoise(x : mat, p : int, sigma : scalar)
    [M, N] = size(x)
    ni = M - p + 1
    nj = N - p + 1
    P = zeros(ni * nj, p * p)
    parallel_do([ni, nj], x, P, p, nj, extract_patches)
    mu = mean(P, 0)
    Pc = P - repmat(mu, [ni * nj, 1])
    C = transpose(Pc) * Pc / (ni * nj)
    [U, S, V] = svd(C)
    s = diag(S)
    assert(abs(max(symeig(C)) - s[0]) < 1e-3 * s[0])
    w = max(s - sigma^2, 0) ./ s
    R = Pc * U * diag(w) * transpose(U) + repmat(mu, [ni * nj, 1])
    y = zeros(M, N)
    parallel_do([M, N], R, y, p, ni, nj, aggregate_patches)
end

function [] = main()
    sigma = 20.0
    x = test_image(64, 64)
    noisy = x + test_noise(64, 64, sigma)
    smooth = gaussian_filter(noisy, 1.0)
    [den, s, w] = pca_denoise(noisy, 5, sigma)
    den = clamp(den, 255)
    printf("PSNR noisy:    %.2f dB\n", psnr(x, noisy))
    printf("PSNR gaussian: %.2f dB\n", psnr(x, smooth))
    printf("PSNR pca:      %.2f dB\n", psnr(x, den))
    print "largest patch variances: ", s[0..2]
    print "sum of the Wiener gains: ", sum(w)

    h1 = imshow(x, [0, 255])
    title("clean")
    h2 = imshow(noisy, [0, 255])
    title("noisy")
    h3 = imshow(smooth, [0, 255])
    title("gaussian")
    h4 = imshow(den, [0, 255])
    title("patch PCA")
    h4.connect(h2)
    figure()
    plot(0..numel(s) - 1, log10(s))
    hold("on")
    plot(0..numel(s) - 1, log10(sigma^2) * ones(numel(s)), "r--")
    legend("patch variances", "noise variance")
    xlabel("component")
    ylabel("log10 variance")
    title("patch spectrum")
    hold("off")
end
