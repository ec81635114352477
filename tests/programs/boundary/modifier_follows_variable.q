% B = A keeps A's access modifier; C : mat'unchecked = A views the same data with another.
% ==
% stdout {
% 0
% 4
% 9
% 2
% }
A : mat'safe = [[1, 2], [3, 4]]
B = A
print B[5, 5]
C : mat'clamped = A
print C[5, 5]
C[0, 0] = 9
print A[0, 0]
D : mat'circular = B
print D[2, 3]
