% statement: Gi = inv(Gd)
% The inverse of a well-conditioned S x S matrix (NumPy: np.linalg.inv, LAPACK gesv).
% Sizes: S x S (256), single floats. Checksum: sum(abs(Gi)).
% The lines marked `bench: size` are replaced by `blazar bench --suite linalg`.
S = 256      % bench: size
reps = 10    % bench: size
import "../common.q"

Gd = make_g(S, S / 8)
Gi = inv(Gd)    % warm-up
for k = 1..reps
    tic()
    Gi = inv(Gd)
    toc("rep")
endfor
print "checksum: ", sum(abs(Gi))
