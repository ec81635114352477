% statement: for i: A[0,0] += v; A[0,1] += v*v; A[1,0] += ...; A[1,1] += 1
% Four accumulators at constant indices over M*N/2 elements (the reduction transform
% of elements at loop-invariant indices), against a kernel with atomic additions. The
% values are small ints (v = x mod 16), so every sum is exact and both sides agree.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"

im = make_image(M, N, C)
x = im[:, :, 0]
L = floor(M * N / 2)
A = mat[int](2, 2)
for k = 0..reps
    if k > 0
        tic()
    end
    A = mat[int](2, 2)
    for i = 0..L - 1
        v = int(mod(x[mod(i, M), floor(i / M)], 16))
        A[0, 0] += v
        A[0, 1] += v * v
        A[1, 0] += mod(v, 7)
        A[1, 1] += 1
    end
    if k > 0
        toc("rep")
    end
end
print "checksum: ", sum(A)
