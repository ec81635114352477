% Writing through a 'const parameter is an error at the assignment.
% ==
% error: const_parameter_write\.q:5:5: error: .*const
function [] = touch(v : vec'const)
    v[0] = 1
end
touch([1, 2, 3])
