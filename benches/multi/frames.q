% A video-frame style loop: each 4096x4096 frame is made in the program (from the
% frame number), denoised, and kept; the frames are independent, so over two GPUs
% consecutive frames run on different GPUs at once.
M = 4096     % bench: size
frames = 16  % bench: size
import "common.q"

warm = cell(2)
for k = 0..1
    warm[k] = denoise(make(M, M, 37, 11, k))   % warm-up: compiles on every GPU
endfor
print "warm-up: ", sum(warm[0]) + sum(warm[1])
out = cell(frames)
tic()
for k = 0..frames - 1
    out[k] = denoise(make(M, M, 37, 11, k))
endfor
s = 0.0
for k = 0..frames - 1
    s += sum(out[k])
endfor
t = toc()
print sprintf("ms: %.3f", t / frames)
print sprintf("checksum: %.6e", s)
