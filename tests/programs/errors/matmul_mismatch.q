% A matrix product with mismatched inner dimensions is an error.
% ==
% error: matmul_mismatch\.q:6:5: error: .*(inner|dimension|size)
A = ones(2, 3)
B = ones(2, 3)
C = A * B
