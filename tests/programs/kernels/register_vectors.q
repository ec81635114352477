% Small arrays made in kernel and device code with a constant length become register
% vectors: `acc = zeros(4)` then `acc = acc + x[i, j, 0..3]`, `uninit(size(v))` of a
% vec3, element writes `r[k] = e` and reads, `sum` of them. A small array handed to a
% device function stays memory, so the function's writes are seen by the caller.
% ==
% stdout {
% [ [12,15,18,21],
%   [48,51,54,57] ]
% [ [3,2,1],
%   [6,5,4] ]
% [ [1,2,3],
%   [1,3,4] ]
% }
function [] = __kernel__ column_sums(x : cube, y : mat, pos : int)
    acc = zeros(4)
    for j = 0..2
        acc = acc + x[pos, j, 0..3]
    end
    for c = 0..3
        y[pos, c] = acc[c]
    end
end
x = zeros(2, 3, 4)
for i = 0..1
    for j = 0..2
        for c = 0..3
            x[i, j, c] = 12 * i + 4 * j + c
        end
    end
end
y = zeros(2, 4)
parallel_do(2, x, y, column_sums)
print y

function r = __device__ reversed(v : vec3)
    r = uninit(size(v))
    for k = 0..2
        r[k] = v[2 - k]
    end
end
function [] = __kernel__ flip_rows(a : mat, b : mat, pos : int)
    b[pos, 0..2] = reversed(a[pos, 0..2])
end
a = [[1, 2, 3], [4, 5, 6]]
b = zeros(2, 3)
parallel_do(2, a, b, flip_rows)
print b

function [] = __device__ add_one(t : vec)
    for k = 0..numel(t) - 1
        t[k] = t[k] + 1
    end
end
function [] = __kernel__ counts(c : mat, pos : int)
    t = ones(3)
    t[1] = 1 + pos
    t[2] = 2 + pos
    add_one(t)
    t[0] = t[0] - 1
    for k = 0..2
        c[pos, k] = t[k]
    end
end
c = zeros(2, 3)
parallel_do(2, c, counts)
print c
