% statement: [V, d] = symeig(H)
% Eigenvalues and eigenvectors of a symmetric S x S matrix (NumPy: np.linalg.eigh, LAPACK
% syevd). Sizes: S x S (256), single floats. Checksum: sum(d) + sum(abs(d)).
% The lines marked `bench: size` are replaced by `blazar bench --suite linalg`.
S = 256      % bench: size
reps = 10    % bench: size
import "../common.q"

H = make_sym(S)
[V, d] = symeig(H)    % warm-up
for k = 1..reps
    tic()
    [V, d] = symeig(H)
    toc("rep")
endfor
print "checksum: ", sum(d) + sum(abs(d))
