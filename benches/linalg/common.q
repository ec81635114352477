% Shared by the programs of benches/linalg (each one has `import "../common.q"`): the
% S x S input matrices, built from integer formulas of the position exactly as
% common.py builds them, so both sides start from bit-identical single-float matrices.

% G[i, j] = mod(7 i^2 + 13 j + 3 i j, 101) / 16 - 3 + d * (i == j): exact in single
% precision, full rank, entries in [-3, 3.25] (plus d on the diagonal).
function [] = __kernel__ fill_g(G : mat'unchecked, d : scalar, pos : ivec2)
    i = pos[0]
    j = pos[1]
    v = mod(7 * i * i + 13 * j + 3 * i * j, 101) * 0.0625 - 3
    if i == j
        v += d
    endif
    G[pos] = v
endfunction

% The general matrix (svd), with d added on the diagonal (d = S/8 for inv, linsolve,
% logdet: well conditioned).
function G = make_g(S, d)
    G = zeros(S, S)
    parallel_do(size(G), G, d, fill_g)
endfunction

% The symmetric matrix of symeig: G + transpose(G).
function H = make_sym(S)
    G = make_g(S, 0)
    H = G + transpose(G)
endfunction

% The right-hand side of linsolve: b[i] = mod(5 i, 11) - 5.
function b = make_rhs(S)
    b = mod(5 * (0..S-1), 11) - 5
endfunction
