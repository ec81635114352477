% Named functions, device functions and lambdas are values passed to other functions.
% ==
% stdout {
% [1,4,9]
% [2,3,4]
% [0.5,1,1.5]
% 10
% }
function y = square(x)
    y = x * x
end
function y = __device__ halve(x : scalar)
    y = x / 2
end
function out = apply(f, v)
    out = zeros(numel(v))
    for i = 0..numel(v) - 1
        out[i] = f(v[i])
    end
end
print apply(square, [1, 2, 3])
print apply(x -> x + 1, [1, 2, 3])
print apply(halve, [1, 2, 3])
g = square
h = x -> g(x) + 1
print h(3)
