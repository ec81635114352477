% The literal [5, 2, 7] is a vec[int]. Where a kernel declares `vec` it is converted
% into a new real array; reading it is fine, but a kernel that writes the parameter
% would write that copy and its writes would be lost, so the launch is refused at the
% argument, naming the parameter and both types.
% ==
% stdout {
% 14
% [10,4,14]
% }
% error: (?s)converted_argument_written\.q:22:16: error: the kernel `double_it` writes its parameter `x` : vec, but this argument is a vec\[int\]: it would be converted into a new array.*\[5\.0, 2, 7\]
function [s : scalar] = __kernel__ total(x : vec, pos : int)
    s += x[pos]
end
function [] = __kernel__ double_it(x : vec, pos : int)
    x[pos] = 2 * x[pos]
end
a = [5, 2, 7]
print parallel_do(3, a, total)
b = [5.0, 2, 7]
parallel_do(3, b, double_it)
print b
parallel_do(3, a, double_it)
