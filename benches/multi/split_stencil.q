% One large pipeline split over the GPUs: an element-wise step and a 3x3 stencil over a
% 16384x16384 image, four rounds; each GPU works on a band of rows and exchanges the
% rows next to its band (the halo) with its neighbours.
M = 16384   % bench: size
reps = 5    % bench: size
import "common.q"

x = make(M, M, 37, 11, 0)
u = smooth(x)      % warm-up: compiles
print "warm-up: ", sum(u)
tic()
for k = 1..reps
    u = smooth(x)
endfor
s = sum(u)
t = toc()
print sprintf("ms: %.3f", t / reps)
print sprintf("checksum: %.6e", s)
