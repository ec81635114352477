% Kernels whose rows a GPU may run 4 positions per thread, reading aligned 4-element
% chunks (rows of 1024 and 2048 elements; `BLAZAR_CUDA_VECTOR=4` takes that path for
% these small launches too): offsets that cross chunks on both sides and leave the row
% (zero extension), diagonal and vertical neighbours, a column index computed from the
% data, int rows, an early return, a rank-3 image, an array of another rank, an input
% wider than the index space and one whose rows are not a multiple of 4 wide (no
% chunks for that launch). Checked against host loops reading through 'safe views.
function [] = __kernel__ sten(x : mat, y : mat'unchecked, d : int, pos : ivec2)
    s = 0.0
    for k = -d..d
        s += x[pos[0] + k, pos[1]] * 3 + x[pos[0], pos[1] + k] + x[pos + [k, -k]]
    endfor
    y[pos] = s
endfunction

function [] = __kernel__ gather(x : mat, a : mat[int], w : vec, y : mat'unchecked, pos : ivec2)
    n = size(x, 1)
    if mod(pos[1], 3) == 1
        return
    endif
    j = mod(pos[1] * 5 + a[pos[0], pos[1] + 1], n)
    y[pos] = x[pos[0], j] * w[mod(pos[1], 4)] + a[pos[0], pos[1] - 2] - a[pos[0] + 1, pos[1] + 3]
endfunction

function [] = __kernel__ wide(x : mat, y : mat'unchecked, pos : ivec2)
    y[pos] = x[pos[0], pos[1] + 2] - x[pos[0], pos[1] + 7] * 2
endfunction

function [] = __kernel__ box3(x : cube, y : cube'unchecked, pos : ivec3)
    s = 0.0
    for dj = -1..1
        for dk = -1..1
            s += x[pos + [0, dj, dk]] * (dj + 2)
        endfor
    endfor
    y[pos] = s + x[pos[0] + 1, pos[1], pos[2] + 5]
endfunction

function x = fill(m, n)
    x = zeros(m, n)
    for i = 0..m-1
        for j = 0..n-1
            x[i, j] = mod(i * 7 + j * 3, 11) + mod(j, 5) * 0.25
        end
    end
endfunction

function ok = check_sten(m : int, n : int, d : int)
    x = fill(m, n)
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
    ok = max(abs(y - want)) == 0
endfunction

function ok = check_gather(m : int, n : int)
    x = fill(m, n)
    a = int(zeros(m, n))
    for i = 0..m-1
        for j = 0..n-1
            a[i, j] = mod(i * 13 + j * 29, 17) - 8
        end
    end
    w = [0.5, -1, 2, 0.25]
    y = zeros(m, n)
    parallel_do(size(x), x, a, w, y, gather)
    xs : mat'safe = x
    ab : mat[int]'safe = a
    want = zeros(m, n)
    for i = 0..m-1
        for j = 0..n-1
            if mod(j, 3) != 1
                jj = mod(j * 5 + ab[i, j + 1], n)
                want[i, j] = xs[i, jj] * w[mod(j, 4)] + ab[i, j - 2] - ab[i + 1, j + 3]
            end
        end
    end
    ok = max(abs(y - want)) == 0
endfunction

function ok = check_wide(m : int, n : int, extra : int)
    x = fill(m, n + extra)
    y = zeros(m, n)
    parallel_do(size(y), x, y, wide)
    xs : mat'safe = x
    want = zeros(m, n)
    for i = 0..m-1
        for j = 0..n-1
            want[i, j] = xs[i, j + 2] - xs[i, j + 7] * 2
        end
    end
    ok = max(abs(y - want)) == 0
endfunction

function ok = check_box3(p : int, m : int, n : int)
    x = zeros(p, m, n)
    for c = 0..p-1
        for i = 0..m-1
            for j = 0..n-1
                x[c, i, j] = mod(c * 5 + i * 7 + j * 3, 11)
            end
        end
    end
    y = zeros(p, m, n)
    parallel_do(size(x), x, y, box3)
    xs : cube'safe = x
    want = zeros(p, m, n)
    for c = 0..p-1
        for i = 0..m-1
            for j = 0..n-1
                s = 0
                for dj = -1..1
                    for dk = -1..1
                        s += xs[c, i + dj, j + dk] * (dj + 2)
                    end
                end
                want[c, i, j] = s + xs[c + 1, i, j + 5]
            end
        end
    end
    ok = max(abs(y - want)) == 0
endfunction

print check_sten(4, 1024, 1), check_sten(3, 2048, 5), check_sten(2, 1024, 0)
print check_gather(5, 1024), check_gather(2, 2048)
print check_wide(4, 1024, 4), check_wide(3, 1024, 3)
print check_box3(2, 3, 1024)
% ==
% stdout { 111
% 11
% 11
% 1 }
