% Shared by the programs of benches/stdlib (each one has `import "../common.q"`): the
% input image, built from the integer formula of benches/arrays/common.q (and
% common.py), so both sides start from bit-identical single-float data, and the 9x9
% Gaussian kernel of the filter benchmark.

% x[i, j, k] = mod(37 i + 11 j + 71 k + i j, 256): values 0..255
function [] = __kernel__ fill_image(x : cube'unchecked, pos : ivec3)
    i = pos[0]
    j = pos[1]
    x[pos] = mod(37 * i + 11 * j + 71 * pos[2] + i * j, 256)
endfunction

function x = make_x(M, N, C)
    x = zeros(M, N, C)
    parallel_do(size(x), x, fill_image)
endfunction

% The normalised 9x9 Gaussian of sigma 1.5: g[m, n] = exp(-((m-4)^2 + (n-4)^2) / 4.5).
function h = gauss9()
    h = zeros(9, 9)
    for m = 0..8
        for n = 0..8
            h[m, n] = exp(-((m - 4)^2 + (n - 4)^2) / (2 * 1.5^2))
        end
    end
    h = h / sum(h)
endfunction
