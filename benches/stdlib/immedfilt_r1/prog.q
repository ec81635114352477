% statement: y = immedfilt(x, 1)
% immedfilt.q: median of each 3x3 window of each channel, clamped borders. Peer:
% scipy.ndimage.median_filter(x, size=(3, 3, 1), mode="nearest") (cupyx on the GPU).
% Sizes as imfilter_gauss9.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"
import "immedfilt.q"

x = make_x(M, N, C)

y = immedfilt(x, 1)    % warm-up
for k = 1..reps
    tic()
    y = immedfilt(x, 1)
    toc("rep")
endfor
print "checksum: ", sum(y)
