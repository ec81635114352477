% In kernel code a real value stored in a local declared int is a located error at
% compile time (the host accepts integral reals only, which a kernel cannot test
% where it assigns); `int()`, `floor()` or `round()` convert (issue 32, item 2).
% ==
% error: typed_local_real\.q:7:5: error: this local is declared int, so it cannot hold real values
function [] = __kernel__ k(y : vec, pos : int)
    t : int = pos / 2
    y[pos] = t
end
y = zeros(4)
parallel_do(4, y, k)
print y
