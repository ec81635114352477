% Element-wise operations on arrays of incompatible sizes are an error at the operator expression.
% ==
% error: size_mismatch\.q:6:5: error: .*(size|dimension|shape).*
a = [1, 2, 3]
b = [1, 2]
c = a ./ b
