% reduction rules and macro definitions parse, and the program still runs correctly.
% ==
% stdout {
% 14
% 6
% }
reduction (x : scalar) -> x * 1 = x
reduction (a : vec, b : vec) -> sum(a .* b) = dotprod(a, b)
macro [] = gpu_only()
    $target("gpu")
endmacro
a = [1, 2, 3]
print sum(a .* a)
y = 6
print y * 1
