% `A * B` large enough to be cut into tiles of the result, one per thread (odd sizes
% that no tile divides; a short wide and a tall narrow product; a transposed and a
% sliced operand): every product equals the one computed a row at a time (a vec times
% a matrix, never tiled), and three elements equal the exact sums (Python integers).
% Small integer elements keep every sum exact in double precision (the f64 product).
% ==
% options { --double }
% stdout {
% 0 1 44 63
% 0 -70 81 29
% 0 35 5 -47
% 0 64 -56 -64
% 0 -68 43
% }
function [] = __kernel__ fill(A : mat'unchecked, p : int, q : int, r : int, s : int, pos : ivec2)
    A[pos] = mod(p * pos[0] + q * pos[1], r) - s
endfunction

function A = make(m, n, p, q, r, s)
    A = zeros(m, n)
    parallel_do(size(A), A, p, q, r, s, fill)
endfunction

function R = by_rows(A, B)
    R = zeros(size(A, 0), size(B, 1))
    for i = 0..size(A, 0) - 1
        R[i, :] = A[i, :] * B
    endfor
endfunction

function [] = check(A, B)
    C = A * B
    m = size(C, 0)
    n = size(C, 1)
    print max(abs(C - by_rows(A, B))), " ", C[0, 0], " ", C[m - 1, n - 1], " ", C[floor(m / 2), floor(n / 3)]
endfunction

check(make(133, 131, 3, 5, 17, 8), make(131, 137, 7, 2, 13, 6))
check(make(3, 1000, 3, 5, 17, 8), make(1000, 1001, 7, 2, 13, 6))
check(make(4099, 3, 3, 5, 17, 8), make(3, 517, 7, 2, 13, 6))
check(transpose(make(131, 133, 3, 5, 17, 8)), make(131, 137, 7, 2, 13, 6))
A = make(133, 131, 3, 5, 17, 8)
S = A[1..131, :] * make(131, 137, 7, 2, 13, 6)
print max(abs(S - by_rows(A[1..131, :], make(131, 137, 7, 2, 13, 6)))), " ", S[0, 0], " ", S[130, 136]
