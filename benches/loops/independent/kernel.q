% The hand-written kernel for benches/loops/independent.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"

function [] = __kernel__ affine(x : cube, y : cube, pos : ivec3)
    y[pos] = 2 * x[pos] + 1
endfunction
x = make_image(M, N, C)
y = zeros(M, N, C)
for k = 0..reps
    if k > 0
        tic()
    end
    parallel_do(size(y), x, y, affine)
    if k > 0
        toc("rep")
    end
end
print "checksum: ", sum(y)
