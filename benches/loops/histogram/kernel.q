% The hand-written shared-memory histogram for benches/loops/histogram: each block
% counts into 4 interleaved copies of the bins in shared memory (threads spread over
% the copies to meet less often), then adds its counts to the global bins.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"

function [] = __kernel__ histo_shared(im : cube, hist : vec, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
    bins : mat = shared(256, 4)
    t = pos2ind(blkdim, blkpos)
    n = prod(blkdim)
    for b = t..n..1023
        bins[ind2pos([256, 4], b)] = 0
    end
    syncthreads
    bins[int(im[pos]), mod(t, 4)] += 1
    syncthreads
    for b = t..n..255
        hist[b] += bins[b, 0] + bins[b, 1] + bins[b, 2] + bins[b, 3]
    end
endfunction
im = make_image(M, N, C)
hist = zeros(256)
for k = 0..reps
    if k > 0
        tic()
    end
    hist = zeros(256)
    parallel_do(size(im), im, hist, histo_shared)
    if k > 0
        toc("rep")
    end
end
print "checksum: ", sum(hist .* (0..255))
