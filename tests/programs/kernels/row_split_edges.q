% Rows that run their interior check-free and their ends checked: indices with
% coefficients 1, 2, 3 and -1 on the moving component, reach past both edges (zero
% extension), reaches wider than the row (no check-free part), rows that straddle
% chunks of threads, and image launches whose last extent flattens (3 and 2
% channels), where an array's channel count may differ from the launch's. Every
% kernel is checked against host loops reading through a 'safe view.

function [] = __kernel__ taps(x : mat, y : mat'unchecked, d : int, pos : ivec2)
    n = size(y, 1)
    s = 0.0
    for k = -d..d
        s += x[pos[0], pos[1] + k] + 2 * x[pos[0], 2 * pos[1] + k] + 5 * x[pos[0], n - 1 - pos[1] + k] + 7 * x[pos[0], 3 * pos[1] - k]
    endfor
    y[pos] = s
endfunction

function ok = check2(m : int, n : int, w : int, d : int)
    x = zeros(m, w)
    for i = 0..m-1
        for j = 0..w-1
            x[i, j] = mod(i * 5 + j * 3, 13)
        end
    end
    y = zeros(m, n)
    parallel_do(size(y), x, y, d, taps)
    xs : mat'safe = x
    want = zeros(m, n)
    for i = 0..m-1
        for j = 0..n-1
            s = 0
            for k = -d..d
                s += xs[i, j + k] + 2 * xs[i, 2 * j + k] + 5 * xs[i, n - 1 - j + k] + 7 * xs[i, 3 * j - k]
            end
            want[i, j] = s
        end
    end
    ok = max(abs(y - want)) == 0
endfunction

% pos covers [M, N, C]: pairs along the second dimension, a shifted write, and a
% neighbour along it.
function [] = __kernel__ pairs(x : cube, y : cube'unchecked, half : int, pos : ivec3)
    a = x[pos[0], 2 * pos[1], pos[2]]
    b = x[pos[0], 2 * pos[1] + 1, pos[2]]
    y[pos] = a + 2 * b + 3 * x[pos[0], pos[1] - 1, pos[2]]
    y[pos[0], pos[1] + half, pos[2]] = a - b
endfunction

function ok = check3(m : int, n : int, c : int, cx : int)
    x = zeros(m, 2 * n, cx)
    for i = 0..m-1
        for j = 0..2*n-1
            for k = 0..cx-1
                x[i, j, k] = mod(i * 7 + j * 3 + k * 5, 17)
            end
        end
    end
    y = zeros(m, 2 * n, c)
    parallel_do([m, n, c], x, y, n, pairs)
    xs : cube'safe = x
    want = zeros(m, 2 * n, c)
    for i = 0..m-1
        for j = 0..n-1
            for k = 0..c-1
                a = xs[i, 2 * j, k]
                b = xs[i, 2 * j + 1, k]
                want[i, j, k] = a + 2 * b + 3 * xs[i, j - 1, k]
                want[i, j + n, k] = a - b
            end
        end
    end
    ok = max(abs(y - want)) == 0
endfunction

print check2(3, 700, 2200, 2), check2(2, 1500, 4600, 1), check2(4, 5, 6, 9), check2(2, 40, 130, 0)
print check3(3, 400, 3, 3), check3(2, 300, 2, 2), check3(2, 300, 3, 4), check3(3, 5, 3, 3), check3(1, 1, 3, 3)
% ==
% stdout {
% 1111
% 11111
% }
