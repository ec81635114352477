% statement: l = logdet(Gd)
% log |det| of an S x S matrix from its LU factors (NumPy: np.linalg.slogdet, LAPACK
% getrf; det itself overflows single floats at this size). Sizes: S x S (256), single
% floats. Checksum: the value.
% The lines marked `bench: size` are replaced by `blazar bench --suite linalg`.
S = 256      % bench: size
reps = 10    % bench: size
import "../common.q"

Gd = make_g(S, S / 8)
l = logdet(Gd)    % warm-up
for k = 1..reps
    tic()
    l = logdet(Gd)
    toc("rep")
endfor
print "checksum: ", l
