% A kernel condition is a scalar: a vector in an `if` is an error at the condition.
% ==
% error: vector_condition\.q:5:8: error: a condition in kernel code must be a scalar, not a vector of 2
function [] = __kernel__ pick(y : mat, pos : ivec2)
    if pos
        y[pos] = 1
    end
end
y = zeros(2, 2)
parallel_do(size(y), y, pick)
