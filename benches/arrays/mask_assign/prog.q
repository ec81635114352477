% statement: w[w > 200] = 200
% Masked assignment, in place on a fresh copy made outside the timed region.
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

% Warm-up, then each repetition updates a fresh copy of x (copied outside the timing).
w = copy(x)
w[w > 200] = 200
for k = 1..reps
    w = copy(x)
    tic()
    w[w > 200] = 200
    toc("rep")
endfor
r = w
print "checksum: ", sum(r)
