% statement: !parallel for; for m, n, c: (sharedmemcaching) hist[im[m,n,c]] += 1
% The histogram loop with the shared-memory caching transform asked for in its body
% (seed 003), against a hand-written shared-memory histogram kernel.
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
    !parallel for
    for m = 0..M - 1
        for n = 0..N - 1
            for c = 0..C - 1
                !kernel_transform enable="sharedmemcaching"
                !kernel_arg name=hist; type="inout"; access="shared"; op="+="; cache_slices=hist[:]; numel=256
                hist[im[m, n, c]] += 1
            end
        end
    end
    if k > 0
        toc("rep")
    end
end
print "checksum: ", sum(hist .* (0..255))
