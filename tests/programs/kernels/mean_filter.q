% The 3x3 mean filter three ways: non-separable with `x[pos + [-1, -1, 0]]` reads (zero
% extension is the kernel default), separable through a temporary, and separable with
% a shared-memory tile of blkdim + [2, 0, 0] rows bounded by an assert. All three
% against a host filter reading through a 'safe view.
% ==
% stdout {
% 1
% 1
% 1
% 1
% 97 31
% }
[M, N, P] = [10, 12, 3]
x = zeros(M, N, P)
for r = 0..M - 1
    for c = 0..N - 1
        for ch = 0..P - 1
            x[r, c, ch] = mod(r * 31 + c * 17 + ch * 7 + r * c, 64)
        end
    end
end

% Host reference.
xs : cube'safe = x
expected = zeros(M, N, P)
for r = 0..M - 1
    for c = 0..N - 1
        for ch = 0..P - 1
            s = 0
            for dr = -1..1
                for dc = -1..1
                    s += xs[r + dr, c + dc, ch]
                end
            end
            expected[r, c, ch] = s / 9
        end
    end
end

% 1. Non-separable.
y1 = zeros(size(x))
parallel_do(size(y1), x, y1, __kernel__ (x : cube, y : cube, pos : ivec3) -> _
    y[pos] = (x[pos + [-1, -1, 0]] + x[pos + [-1, 0, 0]] + x[pos + [-1, 1, 0]] + _
              x[pos + [0, -1, 0]] + x[pos] + x[pos + [0, 1, 0]] + _
              x[pos + [1, -1, 0]] + x[pos + [1, 0, 0]] + x[pos + [1, 1, 0]]) * (1.0 / 9))
print max(abs(y1 - expected)) < 1e-4

% 2. Separable, with a temporary.
tmp = zeros(size(x))
y2 = zeros(size(x))
parallel_do(size(x), x, tmp, __kernel__ (x : cube, y : cube, pos : ivec3) -> _
    y[pos] = x[pos + [-1, 0, 0]] + x[pos] + x[pos + [1, 0, 0]])
parallel_do(size(x), tmp, y2, __kernel__ (x : cube, y : cube, pos : ivec3) -> _
    y[pos] = (x[pos + [0, -1, 0]] + x[pos] + x[pos + [0, 1, 0]]) * (1.0 / 9))
print max(abs(y2 - expected)) < 1e-4

% 3. Separable, with shared memory: row i of the tile is image row (block start + i - 1).
function [] = __kernel__ mean3x3_shared(x : cube, y : cube, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
    [R, C, K] = blkdim + [2, 0, 0]
    assert(R <= 10 && C <= 16 && K <= 3)
    tile = shared(R, C, K)
    s = 0.
    for c = pos[1] - 1..pos[1] + 1
        s += x[pos[0] - 1, c, pos[2]]
    endfor
    tile[blkpos] = s
    if blkpos[0] < 2
        s = 0.
        for c = pos[1] - 1..pos[1] + 1
            s += x[pos[0] - 1 + blkdim[0], c, pos[2]]
        endfor
        tile[blkpos + [blkdim[0], 0, 0]] = s
    endif
    syncthreads
    s = 0.
    for r = blkpos[0]..blkpos[0] + 2
        s += tile[r, blkpos[1], blkpos[2]]
    endfor
    y[pos] = s * (1.0 / 9)
endfunction
y3 = zeros(size(x))
parallel_do(size(y3), x, y3, mean3x3_shared)
print max(abs(y3 - expected)) < 1e-4
% The same kernel with explicit blocks of 2 rows.
y4 = zeros(size(x))
parallel_do([[M, N, P], [2, N, P]], x, y4, mean3x3_shared)
print max(abs(y4 - expected)) < 1e-4
print round(y1[0, 0, 0] * 9), " ", round(y3[5, 6, 1])
