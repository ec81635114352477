% statement: r = x[0..M/2-1, :, :]
% The first half of the rows as a new array (NumPy: a copy of the view, so both sides copy).
% Sizes: M x N x C images (1024x1024x3 on the CPU, 4096x4096x3 on the GPU), single floats.
% Written as a user writes it: one whole-array statement, timed 10 (CPU) or 30 (GPU)
% times after a warm-up that compiles what it needs. The lines marked `bench: size`
% are replaced by `blazar bench --suite arrays` with the sizes of the device.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
S = 512      % bench: size
reps = 10    % bench: size
import "../common.q"

x = make_x(M, N, C)
h = int(M / 2) - 1

r = x[0..h, :, :]    % warm-up
for k = 1..reps
    tic()
    r = x[0..h, :, :]
    toc("rep")
endfor
print "checksum: ", sum(r)
