% statement: r = [x, y]
% Two images stacked along a new leading dimension (a matrix literal of arrays; NumPy: stack).
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
y = make_y(M, N, C)

r = [x, y]    % warm-up
for k = 1..reps
    tic()
    r = [x, y]
    toc("rep")
endfor
print "checksum: ", sum(r) + sum(r[1, 0, :, 0])
