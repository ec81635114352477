% A vec passed where a kernel declares a cube is a 1×N×1 cube: reads outside its
% extent-1 dimensions follow the parameter's boundary mode per dimension (clamped,
% mirror and circular read row 0 again; zero reads 0), as for a real 1×N×1 array.
% ==
% stdout {
% [1,2,3,4]
% [1,2,3,4]
% [1,2,3,4]
% [0,0,0,0]
% [2,3,4,4]
% }
function [] = __kernel__ clamped_k(x : cube'clamped, y : cube'unchecked, pos : ivec3)
    y[pos] = x[pos[0] + 1, pos[1], pos[2] - 1]
end
function [] = __kernel__ mirror_k(x : cube'mirror, y : cube'unchecked, pos : ivec3)
    y[pos] = x[pos[0] - 1, pos[1], pos[2]]
end
function [] = __kernel__ circular_k(x : cube'circular, y : cube'unchecked, pos : ivec3)
    y[pos] = x[pos[0] + 3, pos[1], pos[2]]
end
function [] = __kernel__ zero_k(x : cube'safe, y : cube'unchecked, pos : ivec3)
    y[pos] = x[pos[0] + 1, pos[1], pos[2]]
end
function [] = __kernel__ along_k(x : cube'clamped, y : cube'unchecked, pos : ivec3)
    y[pos] = x[pos[0], pos[1] + 1, pos[2]]
end
v = [1, 2, 3, 4]
function [] = run(k)
    y = zeros(size(v))
    parallel_do([1, 4, 1], v, y, k)
    print y
end
run(clamped_k)
run(mirror_k)
run(circular_k)
run(zero_k)
run(along_k)
