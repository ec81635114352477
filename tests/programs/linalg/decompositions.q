% chol (upper factor R, transpose(R)*R = A), svd ([U, S, V] with S the shape of A, and
% the singular values alone), symeig ([V, d], d ascending), eig (symmetric: as symeig;
% otherwise complex unless every eigenvalue is real). Eigen- and singular vectors are
% compared by magnitude (their signs are not unique).
% Reference: NumPy, np.linalg.cholesky(S).T, svd, eigh, eigvals, slogdet.
% ==
% tolerance { 1e-5 }
% stdout {
% [ [2,6,-8],
%   [0,1,5],
%   [0,0,3] ]
% [3.4641,3.16228]
% [2,2]
% [2,3]
% [3,3]
% [ [3.4641,0,0],
%   [0,3.16228,0] ]
% [ [0.707107,0.707107],
%   [0.707107,0.707107] ]
% [ [0.408248,0.894427],
%   [0.816497,0.447214],
%   [0.408248,5.26261e-16] ]
% 1
% 1
% [0.585786,2,3.41421]
% [ [0.5,0.707107,0.5],
%   [0.707107,3.1225e-16,0.707107],
%   [0.5,0.707107,0.5] ]
% 1
% [0.585786,2,3.41421]
% [-1,4]
% cvec
% [1,1]
% 0
% 1
% 1
% 3.58352
% }
S = [[4, 12, -16], [12, 37, -43], [-16, -43, 98]]
R = chol(S)
print R
B = [[3, 1, 1], [-1, 3, 1]]
print svd(B)
[U, Sg, V] = svd(B)
print size(U)
print size(Sg)
print size(V)
print Sg
print abs(U)
print abs(V[:, 0..1])
print max(abs(U * Sg * transpose(V) - B)) < 1e-5
print max(abs(transpose(V) * V - eye(3))) < 1e-5
T = [[2, -1, 0], [-1, 2, -1], [0, -1, 2]]
[W, d] = symeig(T)
print d
print abs(W)
print max(abs(T * W - W * diag(d))) < 1e-5
print eig(T)
print sort(eig([[1, 2], [3, 2]]))
z = eig([[0, -1], [1, 0]])
print type(z)
print abs(z)
print real(z[0] + z[1])
N = [[1, 2], [3, 2]]
[Q, D] = eig(N)
print max(abs(N * Q - Q * D)) < 1e-5
print max(abs(transpose(R) * R - S)) < 1e-4
print logdet(S)
