% The hand-written kernel with an atomic addition into one element (64-bit integers:
% a 32-bit float sum stops growing at 2^32 on the GPU image), for
% benches/loops/jdv_atomic.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"

function [] = __kernel__ accumulate(im : cube, acc : vec[int64], pos : ivec3)
    acc[0] += int64(im[pos])
endfunction
im = make_image(M, N, C)
total = 0
for k = 0..reps
    if k > 0
        tic()
    end
    acc = vec[int64](1)
    parallel_do(size(im), im, acc, accumulate)
    total = acc[0]
    if k > 0
        toc("rep")
    end
end
print "checksum: ", total
