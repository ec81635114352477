% A __device__ lambda that captures a host variable, passed as a function-typed kernel
% parameter; complex matrices written by a kernel; a bool accumulated into an int
% kernel output; numel and size of shared memory.
% ==
% stdout {
% [4.5,7.5,10.5,13.5]
% 1
% [ [1-2i,0-2i,-1-2i],
%   [1-1i,0-1i,-1-1i] ]
% 1
% 3
% [30412,30412,30412,30412]
% }
scale = 3
triple = __device__ (a : scalar) -> a * scale
function [] = __kernel__ apply(x : vec, g : [__device__ scalar -> scalar], pos : int)
    x[pos] = g(x[pos])
end
x0 = [1, 2, 3, 4] + 0.5
x = copy(x0)
parallel_do(4, x, triple, apply)
print x
print sum(abs(x - x0 * scale)) == 0

z = complex(zeros(2, 3))
parallel_do(size(z), z, __kernel__ (z : cmat, pos : ivec2) -> z[pos] = complex(pos[0], pos[1]) * 1i + conj(complex(1, 2)))
print z
ok = 1
for i = 0..1
    for j = 0..2
        ok = ok && z[i, j] == complex(i, j) * 1i + complex(1, -2)
    end
end
print ok

function n : int = __kernel__ count_over(x : vec, t : scalar, pos : int)
    n += x[pos] > t
end
print parallel_do(4, x, 5, count_over)

function [] = __kernel__ shared_shape(out : vec, blkdim : int, blkpos : int)
    s = shared(blkdim, 3)
    out[blkpos] = numel(s) + size(s, 0) * 100 + size(s, 1) * 10000
end
o = zeros(4)
parallel_do([[4], [4]], o, shared_shape)
print o
