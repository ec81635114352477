% svd(A, "econ") gives MATLAB's economy-size factors (U m x k, S k x k, V n x k with
% k = min(m, n)); svd(A, 0) is the economy form for a tall A and the full form for a
% wide one, as MATLAB. The singular values are the same in every form.
% Reference: NumPy 2.4.6, np.linalg.svd(A, full_matrices=False) of the 4x3 A below:
% singular values 5.412269, 3.313997, 2.173653.
% ==
% tolerance { 1e-5 }
% stdout {
% [4,3] [3,3] [3,3]
% [ [5.412269,0,0],
%   [0,3.313997,0],
%   [0,0,2.173653] ]
% 1 1 1
% [4,3] [3,3] [3,3]
% [3,3] [3,3] [4,3]
% 1
% [3,3] [3,4] [4,4]
% [5.412269,3.313997,2.173653]
% }
A = [[3, 1, 1], [-1, 3, 1], [2, 0, 4], [1, 1, 1]]
[U, S, V] = svd(A, "econ")
print size(U), " ", size(S), " ", size(V)
print S
ok_rec = max(abs(U * S * transpose(V) - A)) < 1e-5
ok_u = max(abs(transpose(U) * U - eye(3))) < 1e-5
ok_v = max(abs(transpose(V) * V - eye(3))) < 1e-5
print ok_rec, " ", ok_u, " ", ok_v
[U0, S0, V0] = svd(A, 0)
print size(U0), " ", size(S0), " ", size(V0)
B = transpose(A)
[U1, S1, V1] = svd(B, "econ")
print size(U1), " ", size(S1), " ", size(V1)
print max(abs(U1 * S1 * transpose(V1) - B)) < 1e-5
[U2, S2, V2] = svd(B, 0)
print size(U2), " ", size(S2), " ", size(V2)
print svd(A, "econ")
