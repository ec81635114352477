% A sum over a 32768x16384 array (2 GiB of single floats) whose rows were made on the
% GPUs band by band: each GPU sums its band and the partial sums are added.
M = 32768   % bench: size
N = 16384   % bench: size
reps = 20   % bench: size
import "common.q"

x = make(M, N, 37, 11, 0)
s = sum(x)          % warm-up: compiles
print sprintf("warm-up: %.6e", s)
tic()
for k = 1..reps
    s = sum(x)
endfor
t = toc()
print sprintf("ms: %.3f", t / reps)
print sprintf("checksum: %.6e", s)
