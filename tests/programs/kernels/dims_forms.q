% Every form of the `dims` argument: an int, 2-, 3- and 4-d vectors, a leading
% singleton ([1, N] and the size of a vec) as 1-d, [[data dims], [block dims]], and a
% kernel whose `pos` is untyped (its rank comes from dims).
% ==
% stdout {
% [0,1,4,9,16,25,36,49]
% 1
% 1
% 1
% [0,1,2,3,4,5,6,7]
% [7,6,5,4,3,2,1,0]
% 1
% 1
% }
v = zeros(8)
parallel_do(8, v, __kernel__ (y : vec, pos : int) -> y[pos] = pos * pos)
print v

% 2-d vector.
A = zeros(4, 5)
parallel_do([4, 5], A, __kernel__ (y : mat, pos : ivec2) -> y[pos] = 10 * pos[0] + pos[1])
ok = 1
for i = 0..3
    for j = 0..4
        ok = ok && A[i, j] == 10 * i + j
    end
end
print ok

% 3-d vector, the size of a cube.
C = zeros(2, 3, 4)
parallel_do(size(C), C, __kernel__ (y : cube, pos : ivec3) -> y[pos] = 100 * pos[0] + 10 * pos[1] + pos[2])
ok = 1
for i = 0..1
    for j = 0..2
        for k = 0..3
            ok = ok && C[i, j, k] == 100 * i + 10 * j + k
        end
    end
end
print ok

% 4-d: positions flattened into a vector.
F = zeros(2 * 3 * 2 * 5)
parallel_do([2, 3, 2, 5], F, __kernel__ (y : vec, pos : ivec4) -> _
    y[((pos[0] * 3 + pos[1]) * 2 + pos[2]) * 5 + pos[3]] = 1000 * pos[0] + 100 * pos[1] + 10 * pos[2] + pos[3])
ok = 1
for i = 0..1
    for j = 0..2
        for k = 0..1
            for l = 0..4
                ok = ok && F[((i * 3 + j) * 2 + k) * 5 + l] == 1000 * i + 100 * j + 10 * k + l
            end
        end
    end
end
print ok

% [1, N] and size(vec) are 1-d index spaces.
w = zeros(8)
parallel_do([1, 8], w, __kernel__ (y : vec, pos : int) -> y[pos] = pos)
print w
u = zeros(8)
parallel_do(size(u), u, __kernel__ (y : vec, pos : int) -> y[pos] = 7 - pos)
print u

% [[data dims], [block dims]].
B = zeros(6, 8)
parallel_do([[6, 8], [3, 4]], B, __kernel__ (y : mat, pos : ivec2, blkidx : ivec2) -> y[pos] = 10 * blkidx[0] + blkidx[1])
ok = 1
for i = 0..5
    for j = 0..7
        ok = ok && B[i, j] == 10 * floor(i / 3) + floor(j / 4)
    end
end
print ok

% An untyped pos takes the rank of dims.
D = zeros(3, 4)
parallel_do(size(D), D, __kernel__ (y, pos) -> y[pos] = pos[0] - pos[1])
print D[2, 0] == 2 && D[0, 3] == -3 && sum(D) == -6
