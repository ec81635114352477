% Stencil reads and shifted writes near every edge (zero extension), on thin and wide
% shapes where each chunk of threads straddles a border; checked against host loops
% reading through a 'safe view.
function [] = __kernel__ sten(x : mat, y : mat'unchecked, d : int, pos : ivec2)
    s = 0.0
    for k = -d..d
        s += x[pos[0] + k, pos[1]] * 3 + x[pos[0], pos[1] + k] + x[pos + [k, -k]]
    endfor
    y[pos] = s
endfunction

function [] = __kernel__ shifted_store(y : mat, d : int, pos : ivec2)
    y[pos + [0, d]] = pos[1] + 0.5
endfunction

function ok = check(m : int, n : int, d : int)
    x = zeros(m, n)
    for i = 0..m-1
        for j = 0..n-1
            x[i, j] = mod(i * 7 + j * 3, 11)
        end
    end
    y = zeros(m, n)
    parallel_do(size(x), x, y, d, sten)
    xs : mat'safe = x
    want = zeros(m, n)
    for i = 0..m-1
        for j = 0..n-1
            s = 0
            for k = -d..d
                s += xs[i + k, j] * 3 + xs[i, j + k] + xs[i + k, j - k]
            end
            want[i, j] = s
        end
    end
    z = zeros(m, n)
    parallel_do(size(z), z, d, shifted_store)
    zw = zeros(m, n)
    for i = 0..m-1
        for j = 0..n-1-d
            zw[i, j + d] = j + 0.5
        end
    end
    ok = max(abs(y - want)) == 0 && max(abs(z - zw)) == 0
endfunction

print check(2, 700, 1), check(3, 600, 4), check(600, 3, 1), check(130, 4, 2), check(7, 100, 0)
% ==
% stdout { 11111 }
