% linalg.q: Blazar's bundled linear-algebra module. Quasar programs import it for the
% matrix functions; in Blazar they are builtins (trace, inv, det, logdet, norm, svd,
% symeig, eig, chol, linsolve / solve, diag, ...), available with or without this
% import, so the module only has to exist. The guide's "Linear algebra" section lists
% the call shapes.
