% Passing a vector of the wrong length to a vec3 parameter is an error at the call.
% ==
% error: fixed_vector_length\.q:7:7: error: argument `v` of `norm1`: expected vec3
function y = norm1(v : vec3)
    y = sum(abs(v))
end
print norm1([1, 2])
