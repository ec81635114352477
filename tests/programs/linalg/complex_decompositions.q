% Complex matrices in the decompositions MATLAB takes them in: det, trace, inv,
% linsolve, logdet, norm, chol (Hermitian positive definite: R^H R = H), symeig and eig
% of a Hermitian matrix (real eigenvalues), svd (real singular values, complex U and V
% with A = U S V^H), eig of a general complex matrix.
% Reference: NumPy 2.4.6 (np.linalg.det, inv, solve, cholesky(H).conj().T, eigvalsh,
% svd, eigvals, norm, slogdet) on A = [[2+1j, 1-1j], [0.5j, 3]], b = [1+1j, 2],
% H = A^H A + I.
% ==
% tolerance { 1e-5 }
% stdout {
% 5.5+2.5i 5+1i 1.798656
% [ [0.452055-0.205479i,-0.082192+0.219178i],
%   [-0.034247-0.075342i,0.369863+0.013699i] ]
% [0.493151+0.684932i,0.780822-0.082192i]
% [ [2.5+0i,0.4-1.8i],
%   [0+0i,2.932576+0i] ]
% 1
% [3.692172,14.557828] [3.692172,14.557828] vec
% [3.682096,1.640784] 3.682096 4.031129 2.44949
% 1
% 1
% [1.792893,3.207107] [0.5,0.5]
% cmat
% }
A = complex([[2, 1], [0, 3]], [[1, -1], [0.5, 0]])
b = complex([1, 2], [1, 0])
print det(A), " ", trace(A), " ", logdet(A)
print inv(A)
print linsolve(A, b)
H = transpose(conj(A)) * A + eye(2)
R = chol(H)
print R
print max(abs(transpose(conj(R)) * R - H)) < 1e-4
print symeig(H), " ", eig(H), " ", type(eig(H))
print svd(A), " ", norm(A), " ", norm(A, "fro"), " ", norm(b)
[U, S, V] = svd(A)
print max(abs(U * S * transpose(conj(V)) - A)) < 1e-5
[W, d] = symeig(H)
print max(abs(H * W - W * diag(d))) < 1e-4
e = eig(A)
print sort(real(e)), " ", imag(e)
print type(U)
