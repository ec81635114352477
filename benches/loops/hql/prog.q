% statement: for i: A[0,0] += x[i]; A[0,1] += x[i]^2; A[1,0] += ...; A[1,1] += 1
% Four accumulators at constant indices over M*N/2 elements (the reduction transform
% of elements at loop-invariant indices), against a kernel with atomic additions.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"

im = make_image(M, N, C)
x = im[:, :, 0]
L = floor(M * N / 2)
A = zeros(2, 2)
for k = 0..reps
    if k > 0
        tic()
    end
    A = zeros(2, 2)
    for i = 0..L - 1
        v = x[mod(i, M), floor(i / M)]
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
