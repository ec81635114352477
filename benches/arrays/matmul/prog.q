% statement: r = A * B
% Matrix product, S x S (NumPy: OpenBLAS; CuPy: cuBLAS).
% Sizes: S x S (512 on the CPU, 2048 on the GPU), single floats.
% Written as a user writes it: one whole-array statement, timed 10 (CPU) or 30 (GPU)
% times after a warm-up that compiles what it needs. The lines marked `bench: size`
% are replaced by `blazar bench --suite arrays` with the sizes of the device.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
S = 512      % bench: size
reps = 10    % bench: size
import "../common.q"

A = make_a(S)
B = make_b(S)

r = A * B    % warm-up
for k = 1..reps
    tic()
    r = A * B
    toc("rep")
endfor
print "checksum: ", sum(r) + sum(abs(r))
