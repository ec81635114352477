% Two independent image pipelines in one program: denoise two 4096x4096 images.
% Nothing is shared between them, so over two GPUs each runs on its own.
M = 4096    % bench: size
reps = 10   % bench: size
import "common.q"

a = make(M, M, 37, 11, 0)
b = make(M, M, 13, 7, 1)
ra = denoise(a)     % warm-up: compiles
rb = denoise(b)
print "warm-up: ", sum(ra) + sum(rb)
tic()
for k = 1..reps
    ra = denoise(a)
    rb = denoise(b)
endfor
s = sum(ra) + sum(rb)
t = toc()
print sprintf("ms: %.3f", t / reps)
print sprintf("checksum: %.6e", s)
