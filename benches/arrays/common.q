% Shared by the programs of benches/arrays (each one has `import "../common.q"`): the
% input data, built from integer formulas of the position exactly as common.py builds
% them, so both sides start from bit-identical single-float arrays.

% x[i, j, k] = mod(a*i + b*j + c*k + d*i*j, 256) + e
function [] = __kernel__ fill_cube(x : cube'unchecked, a : int, b : int, c : int, d : int, e : int, pos : ivec3)
    i = pos[0]
    j = pos[1]
    x[pos] = mod(a * i + b * j + c * pos[2] + d * i * j, 256) + e
endfunction

% A[i, j] = mod(p*i + q*j, r) * scale - offset (small multiples of 1/8: every product
% and partial sum of a matrix product is exact in single precision)
function [] = __kernel__ fill_mat(A : mat'unchecked, p : int, q : int, r : int, scale : scalar, offset : scalar, pos : ivec2)
    A[pos] = mod(p * pos[0] + q * pos[1], r) * scale - offset
endfunction

function x = make_cube(M, N, C, a, b, c, d, e)
    x = zeros(M, N, C)
    parallel_do(size(x), x, a, b, c, d, e, fill_cube)
endfunction

function A = make_mat(n, p, q, r, scale, offset)
    A = zeros(n, n)
    parallel_do(size(A), A, p, q, r, scale, offset, fill_mat)
endfunction

% The three images: values 0..255 (y: 1..256).
function x = make_x(M, N, C)
    x = make_cube(M, N, C, 37, 11, 71, 1, 0)
endfunction

function y = make_y(M, N, C)
    y = make_cube(M, N, C, 13, 7, 29, 3, 1)
endfunction

function z = make_z(M, N, C)
    z = make_cube(M, N, C, 5, 17, 3, 7, 0)
endfunction

% The matrices of the product, S x S.
function A = make_a(S)
    A = make_mat(S, 3, 5, 17, 0.125, 1)
endfunction

function B = make_b(S)
    B = make_mat(S, 7, 2, 13, 0.125, 0.75)
endfunction
