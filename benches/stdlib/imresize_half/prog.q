% statement: y = imresize(x, 0.5, "bilinear")
% imresize.q: bilinear resampling to half the rows and columns, pixel centres aligned
% as MATLAB (s = (d + 0.5) / 0.5 - 0.5), no antialiasing. Peer:
% scipy.ndimage.zoom(x, (0.5, 0.5, 1), order=1, grid_mode=True, mode="nearest") (cupyx
% on the GPU), the same alignment. Sizes as imfilter_gauss9.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"
import "imresize.q"

x = make_x(M, N, C)

y = imresize(x, 0.5, "bilinear")    % warm-up
for k = 1..reps
    tic()
    y = imresize(x, 0.5, "bilinear")
    toc("rep")
endfor
print "checksum: ", sum(y)
