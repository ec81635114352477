% Pairs of samples read at stride 2 along the second-to-last dimension of an image with
% a few channels (`x[i, 2 * j + d, c]`, a Haar transform's horizontal pass): on the
% native tier, launches whose last extent is small run flattened rows, where such an
% index is printed as an i64 affine form (`codegen-c/cpp/flat_index.rs`). Each result
% equals a host loop's, bit for bit. Sizes: channels 1, 2, 3, 4, 5 and 16, widths odd
% and even, a launch wider than half the image (its last pairs read past the edge: zero
% under 'safe), and reads walking backwards (`x[i, n - 1 - 2 * j, c]`).
% ==
% stdout {
% [1,1]
% [1,1]
% [1,1]
% [1,1]
% [1,1]
% [1,1]
% [1,1]
% [1,1]
% [1,1]
% }
function [] = __kernel__ pairs(x : cube'safe, y : cube'unchecked, half : int, pos : ivec3)
    a = x[pos[0], 2 * pos[1], pos[2]]
    b = x[pos[0], 2 * pos[1] + 1, pos[2]]
    y[pos] = 0.5 * (a + b)
    y[pos[0], pos[1] + half, pos[2]] = a - b
endfunction

function [] = __kernel__ backwards(x : cube, y : cube'unchecked, n : int, pos : ivec3)
    a = x[pos[0], n - 1 - 2 * pos[1], pos[2]]
    b = x[pos[0], n - 2 - 2 * pos[1], pos[2]]
    y[pos] = a * 3 - b
endfunction

function ok = check(M, N, C, J)
    x = zeros(M, N, C)
    for i = 0..M - 1
        for j = 0..N - 1
            for c = 0..C - 1
                x[i, j, c] = mod(i * 37 + j * 11 + c * 71 + i * j, 256) / 8
            endfor
        endfor
    endfor
    y = zeros(M, 2 * J, C)
    parallel_do([M, J, C], x, y, J, pairs)
    r = zeros(M, 2 * J, C)
    for i = 0..M - 1
        for j = 0..J - 1
            for c = 0..C - 1
                a = 0.0
                b = 0.0
                if 2 * j < N
                    a = x[i, 2 * j, c]
                endif
                if 2 * j + 1 < N
                    b = x[i, 2 * j + 1, c]
                endif
                r[i, j, c] = 0.5 * (a + b)
                r[i, j + J, c] = a - b
            endfor
        endfor
    endfor
    K = int(floor(N / 2))
    z = zeros(M, K, C)
    parallel_do([M, K, C], x, z, N, backwards)
    s = zeros(M, K, C)
    for i = 0..M - 1
        for j = 0..K - 1
            for c = 0..C - 1
                s[i, j, c] = x[i, N - 1 - 2 * j, c] * 3 - x[i, N - 2 - 2 * j, c]
            endfor
        endfor
    endfor
    ok = [all(y == r), all(z == s)]
endfunction

print check(5, 34, 3, 17)
print check(3, 33, 3, 17)
print check(2, 40, 1, 20)
print check(4, 22, 2, 11)
print check(3, 18, 4, 9)
print check(2, 26, 5, 13)
print check(2, 10, 16, 5)
print check(7, 129, 3, 64)
print check(3, 20, 3, 13)
