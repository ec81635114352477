% A view declared 'unchecked over 'safe data reads with its own mode (checked in host code).
% ==
% error: modifier_override_error\.q:7:7: error: index 2 is out of bounds
A : vec'safe = [1, 2]
print A[2]
C : vec'unchecked = A
print C[2]
