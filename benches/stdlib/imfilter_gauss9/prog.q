% statement: y = imfilter(x, h, [4, 4], "mirror")
% imfilter.q: 2-D correlation of each channel with a 9x9 Gaussian (sigma 1.5), mirrored
% borders. Peer: scipy.ndimage.correlate(x, h[:, :, None], mode="mirror") (cupyx on
% the GPU), the same sums. Sizes: M x N x C images (1024x1024x3 on the CPU, 4096x4096x3
% on the GPU), single floats; timed `reps` times after a warm-up.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"
import "imfilter.q"

x = make_x(M, N, C)
h = gauss9()

y = imfilter(x, h, [4, 4], "mirror")    % warm-up
for k = 1..reps
    tic()
    y = imfilter(x, h, [4, 4], "mirror")
    toc("rep")
endfor
print "checksum: ", sum(y)
