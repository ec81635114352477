% A kernel cannot write to a 'const parameter.
% ==
% error: const_write\.q:5:5: error: cannot write to a 'const array
function [] = __kernel__ overwrite(x : vec'const, pos : int)
    x[pos] = 0
end
parallel_do(3, zeros(3), overwrite)
