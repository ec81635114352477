% inv, det, logdet, linsolve (and its alias solve: LU for a square matrix, least squares
% for a tall one, the minimum-norm solution for a wide one) and norm.
% Reference: NumPy, np.linalg.inv, det, log(abs(det)), solve, lstsq and norm (2, 1, inf,
% "fro"; vectors 2, 1, inf, 3). The bundled linalg.q and system.q import cleanly.
% ==
% tolerance { 1e-5 }
% stdout {
% [ [0.197719,0.0646388,0.00760456],
%   [-0.121673,0.114068,0.0722433],
%   [-0.0342205,-0.0304183,0.114068] ]
% 263
% 5.57215
% [1,-2,4]
% [ [0.220532,0.460076],
%   [0.095057,-0.129278],
%   [0.307985,-0.0988593] ]
% [3.5,1.4]
% [-0.0555556,0.111111,0.277778]
% 9.38555 13 13 12.2882
% 13 19 12 12.2071
% 1
% 1
% 0.25 3
% }
import "system.q"
import "linalg.q"
A = [[4, -2, 1], [3, 6, -4], [2, 1, 8]]
print inv(A)
print det(A)
print logdet(A)
print linsolve(A, [12, -25, 32])
print solve(A, [[1, 2], [0, 1], [3, 0]])
print linsolve([[1, 1], [1, 2], [1, 3], [1, 4]], [6, 5, 7, 10])
print linsolve([[1, 2, 3], [4, 5, 6]], [1, 2])
print norm(A), " ", norm(A, 1), " ", norm(A, 1/0), " ", norm(A, "fro")
v = [3, -4, 12]
print norm(v), " ", norm(v, 1), " ", norm(v, 1/0), " ", norm(v, 3)
print max(abs(A * inv(A) - eye(3))) < 1e-5
print abs(det(inv(A)) * det(A) - 1) < 1e-5
% scalars are 1x1 matrices, and the results scalars
print inv(4), " ", linsolve(2, 6)
