% Function types `[(scalar) -> scalar]` as type aliases and parameter types.
% ==
% stdout {
% 9
% 7
% [2,4,6]
% }
type unary_fn : [(scalar) -> scalar]
type binary_fn : [(scalar, scalar) -> scalar]
function y = apply_twice(f : unary_fn, x : scalar)
    y = f(f(x))
end
function y = fold2(g : binary_fn, a, b)
    y = g(a, b)
end
print apply_twice(x -> x + 3, 3)
print fold2((a, b) -> a + 2 * b, 1, 3)
function v = map_vec(f : [scalar -> scalar], u : vec)
    v = zeros(numel(u))
    for i = 0..numel(u) - 1
        v[i] = f(u[i])
    end
end
print map_vec(t -> 2 * t, [1, 2, 3])
