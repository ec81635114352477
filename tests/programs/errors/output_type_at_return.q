% An output that still holds a value of another type when the function returns is an
% error located at the output's declaration.
% ==
% error: output_type_at_return\.q:5:10: error: output `y` of `stack`: expected mat, got cube
function y : mat = stack(x : mat)
    y = repmat(x, [1, 1, 2])
    y = y + 1
end
z = stack(ones(2, 2))
