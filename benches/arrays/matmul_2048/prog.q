% statement: r = A * B
% Matrix product, 2048 x 2048 on every device (NumPy: OpenBLAS; CuPy: cuBLAS): the
% size where a GEMM is bound by arithmetic, against `matmul`'s 512 x 512 on the CPU.
% Written as a user writes it: one whole-array statement, timed 10 (CPU) or 30 (GPU)
% times after a warm-up. The lines marked `bench: size` are replaced by `blazar bench
% --suite arrays` with the sizes of the device; `S` is not.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
S = 2048
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
