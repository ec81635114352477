% The hand-written kernel (global atomic additions) for benches/loops/histogram.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"

function [] = __kernel__ histo(im : cube, hist : vec, pos : ivec3)
    hist[int(im[pos])] += 1
endfunction
im = make_image(M, N, C)
hist = zeros(256)
for k = 0..reps
    if k > 0
        tic()
    end
    hist = zeros(256)
    parallel_do(size(im), im, hist, histo)
    if k > 0
        toc("rep")
    end
end
print "checksum: ", sum(hist .* (0..255))
