% statement: #pragma force_parallel; for m, n, c: total += im[m,n,c] (vs atomics)
% A sum accumulated in a loop (the parallel reduction transform), against the kernel
% a user writes with an atomic addition into one element (seed 002: the JDV pattern
% under the atomic form).
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"

im = make_image(M, N, C)
total = 0
for k = 0..reps
    if k > 0
        tic()
    end
    total = 0
    #pragma force_parallel
    for m = 0..M - 1
        for n = 0..N - 1
            for c = 0..C - 1
                total += im[m, n, c]
            end
        end
    end
    if k > 0
        toc("rep")
    end
end
print "checksum: ", total
