% Strings cannot be used in kernel code.
% ==
% error: string_in_kernel\.q:5:12: error: strings cannot be used in kernel code
function [] = __kernel__ labelled(y : vec, pos : int)
    name = "pixel"
    y[pos] = pos
end
parallel_do(3, zeros(3), labelled)
