% statement: y = 255*(x/255).^0.45; t = y > 128; e = sum(t .* y)
% Three statements fused into one kernel (`passes::fuse_statements`): `y` and `t` are
% values of one region reading x once, never arrays. `BLAZAR_FUSE_STATEMENTS=off` runs
% them one by one (three kernels, two intermediate arrays) for a comparison.
% Sizes: M x N x C images (1024x1024x3 on the CPU, 4096x4096x3 on the GPU), single floats.
% Written as a user writes it, in a function (its locals are the intermediates), timed
% 10 (CPU) or 30 (GPU) times after a warm-up that compiles what it needs. The lines
% marked `bench: size` are replaced by `blazar bench --suite arrays` with the sizes of
% the device.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
S = 512      % bench: size
reps = 10    % bench: size
import "../common.q"

function e = pipeline(x)
    y = 255*(x/255).^0.45
    t = y > 128
    e = sum(t .* y)
endfunction

x = make_x(M, N, C)

r = pipeline(x)    % warm-up
for k = 1..reps
    tic()
    r = pipeline(x)
    toc("rep")
endfor
print "checksum: ", r
