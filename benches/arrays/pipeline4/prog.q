% statement: g = 255*(x/255).^0.45; b = 3x3 box blur of g (shifted slices); t = b > 128; e = sum(t .* b)
% Four statements: the gamma array is the one intermediate that exists (the blur reads
% it through nine shifted slices); the blur, the threshold and the sum are one kernel.
% `BLAZAR_FUSE_STATEMENTS=off` runs them one by one for a comparison.
% Sizes: M x N x C images (1024x1024x3 on the CPU, 4096x4096x3 on the GPU), single floats.
% Written as a user writes it, in a function, timed 10 (CPU) or 30 (GPU) times after a
% warm-up that compiles what it needs. The lines marked `bench: size` are replaced by
% `blazar bench --suite arrays` with the sizes of the device.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
S = 512      % bench: size
reps = 10    % bench: size
import "../common.q"

function e = pipeline(x, m, n)
    g = 255*(x/255).^0.45
    b = (g[0..m-3, 0..n-3, :] + g[1..m-2, 0..n-3, :] + g[2..m-1, 0..n-3, :] + g[0..m-3, 1..n-2, :] + g[1..m-2, 1..n-2, :] + g[2..m-1, 1..n-2, :] + g[0..m-3, 2..n-1, :] + g[1..m-2, 2..n-1, :] + g[2..m-1, 2..n-1, :]) / 9
    t = b > 128
    e = sum(t .* b)
endfunction

x = make_x(M, N, C)

r = pipeline(x, M, N)    % warm-up
for k = 1..reps
    tic()
    r = pipeline(x, M, N)
    toc("rep")
endfor
print "checksum: ", r
