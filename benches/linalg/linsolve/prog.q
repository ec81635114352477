% statement: x = linsolve(Gd, b)
% Solving Gd x = b for one right-hand side, Gd S x S (NumPy: np.linalg.solve, LAPACK
% gesv). Sizes: S x S (256), single floats. Checksum: sum(x) + sum(abs(x)).
% The lines marked `bench: size` are replaced by `blazar bench --suite linalg`.
S = 256      % bench: size
reps = 10    % bench: size
import "../common.q"

Gd = make_g(S, S / 8)
b = make_rhs(S)
x = linsolve(Gd, b)    % warm-up
for k = 1..reps
    tic()
    x = linsolve(Gd, b)
    toc("rep")
endfor
print "checksum: ", sum(x) + sum(abs(x))
