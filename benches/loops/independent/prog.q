% statement: for m, n, c: y[m,n,c] = 2*x[m,n,c] + 1
% An unannotated independent loop nest (the loop parallelizer makes a 3-dimensional
% kernel of it), against the same computation as a hand-written parallel_do kernel.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"

x = make_image(M, N, C)
y = zeros(M, N, C)
for k = 0..reps
    if k > 0
        tic()
    end
    for m = 0..M - 1
        for n = 0..N - 1
            for c = 0..C - 1
                y[m, n, c] = 2 * x[m, n, c] + 1
            end
        end
    end
    if k > 0
        toc("rep")
    end
end
print "checksum: ", sum(y)
