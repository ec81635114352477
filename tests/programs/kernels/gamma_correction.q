% Gamma correction: a one-line kernel lambda over a cube, a second version through a
% __device__ lambda captured by the kernel lambda; both checked against host array code.
% ==
% stdout {
% 1
% 1
% 1
% 137
% 255
% }
x = zeros(5, 6, 3)
for i = 0..4
    for j = 0..5
        for c = 0..2
            x[i, j, c] = mod(i * 37 + j * 11 + c * 71, 256)
        end
    end
end
x[0, 0, 0] = 255
gamma = 0.5
expected = 255 * (x / 255).^gamma

y = copy(x)
parallel_do(size(y), y, gamma, __kernel__ (y : cube'unchecked, gamma : scalar, pos : ivec3) -> _
    y[pos] = 255 * (y[pos] / 255)^gamma)
print max(abs(y - expected)) < 1e-3

correct = __device__ (v : scalar, g : scalar) -> 255 * (v * (1.0 / 255))^g
k = __kernel__ (y : cube'unchecked, g : scalar, pos : ivec3) -> y[pos] = correct(y[pos], g)
z = copy(x)
parallel_do(size(z), z, gamma, k)
print max(abs(z - expected)) < 1e-3
print max(abs(z - y)) < 1e-4
% x[2, 0, 0] = 74 gives 255 * sqrt(74 / 255) = 137.37
print floor(y[2, 0, 0] + 0.5)
print round(y[0, 0, 0])
