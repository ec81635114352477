% The hand-written kernel (atomic additions) for benches/loops/hql.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"

function [] = __kernel__ moments(x : mat, A : mat[int], M : int, pos : int)
    v = int(mod(x[mod(pos, M), int(floor(pos / M))], 16))
    A[0, 0] += v
    A[0, 1] += v * v
    A[1, 0] += mod(v, 7)
    A[1, 1] += 1
endfunction
im = make_image(M, N, C)
x = im[:, :, 0]
L = floor(M * N / 2)
A = mat[int](2, 2)
for k = 0..reps
    if k > 0
        tic()
    end
    A = mat[int](2, 2)
    parallel_do(L, x, A, M, moments)
    if k > 0
        toc("rep")
    end
end
print "checksum: ", sum(A)
