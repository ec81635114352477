% Kernel lambdas capture enclosing variables: arrays and scalars are passed
% implicitly, with no data arguments; a captured __device__ lambda is inlined; kernels
% nested in functions capture the function's locals.
% ==
% stdout {
% [0,1,4,9,16,25]
% [3,5,7,9,11,13]
% [2,3,4,5,6,7]
% 1
% }
y = zeros(6)
parallel_do(6, __kernel__ (pos : int) -> y[pos] = pos * pos)
print y

scale = 2
offset = 3
z = zeros(6)
parallel_do(numel(z), __kernel__ (pos : int) -> z[pos] = scale * pos + offset)
print z

add_one = __device__ (v : scalar) -> v + 1
w = zeros(6)
for i = 0..5
    w[i] = i
end
parallel_do(6, __kernel__ (pos : int) -> w[pos] = add_one(w[pos]) + 1)
print w

function out = shifted_copy(x : mat, dr : int, dc : int)
    out = zeros(size(x))
    function [] = __kernel__ shift_kernel(pos : ivec2)
        out[pos] = x[pos + [dr, dc]]
    endfunction
    parallel_do(size(x), shift_kernel)
end
x = zeros(4, 5)
for i = 0..3
    for j = 0..4
        x[i, j] = i * 5 + j + 1
    end
end
s = shifted_copy(x, 1, -1)
xs : mat'safe = x
ok = 1
for i = 0..3
    for j = 0..4
        ok = ok && s[i, j] == xs[i + 1, j - 1]
    end
end
print ok
