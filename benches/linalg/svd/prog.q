% statement: [U, Sg, V] = svd(G)
% The full singular value decomposition of an S x S matrix (NumPy: np.linalg.svd, LAPACK
% gesdd). Sizes: S x S (256), single floats. Checksum: the sum of the singular values.
% The lines marked `bench: size` are replaced by `blazar bench --suite linalg`.
S = 256      % bench: size
reps = 10    % bench: size
import "../common.q"

G = make_g(S, 0)
[U, Sg, V] = svd(G)    % warm-up
for k = 1..reps
    tic()
    [U, Sg, V] = svd(G)
    toc("rep")
endfor
print "checksum: ", sum(diag(Sg))
