% statement: for m, n, c: hist[im[m,n,c]] += 1
% A histogram loop, unannotated (updates at data-dependent indices: atomic additions),
% against the hand-written kernel with atomic additions.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"

im = make_image(M, N, C)
hist = zeros(256)
for k = 0..reps
    if k > 0
        tic()
    end
    hist = zeros(256)
    for m = 0..M - 1
        for n = 0..N - 1
            for c = 0..C - 1
                hist[int(im[m, n, c])] += 1
            end
        end
    end
    if k > 0
        toc("rep")
    end
end
print "checksum: ", sum(hist .* (0..255))
