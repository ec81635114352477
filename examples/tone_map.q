% Whole-array code, no kernel written by hand: a synthetic HDR image is tone-mapped,
% denoised by a few gradient steps and summarised. Each statement over the image runs
% as one fused kernel on every CPU core or on the GPU; try
%     blazar run examples/tone_map.q --profile
% to see the kernels each line made and where the time went.

n = 1024
ripple = 1 + 0.25 * sin(transpose(repmat(linspace(0, 20, n), [n, 1])))
x = zeros(n, n, 3)
for c = 0..2
    x[:, :, c] = repmat(linspace(0, 4 + c, n), [n, 1]) .* ripple
end

% Reinhard tone mapping and gamma, per channel.
y = 255 * (x ./ (1 + x)) .^ (1 / 2.2)

% Gradient steps toward the image, with a smoothness pull toward the channel mean.
m = (y[:, :, 0] + y[:, :, 1] + y[:, :, 2]) / 3
z = copy(y)
for k = 1..5
    z[:, :, 0] = z[:, :, 0] - 0.2 * ((z[:, :, 0] - y[:, :, 0]) + 0.1 * (z[:, :, 0] - m))
end

% Clip the brightest pixels and summarise.
z[z > 250] = 250
printf("mean %.2f, max %.2f, energy %.4g\n", mean(z), max(z), sum((z - y) .^ 2))
