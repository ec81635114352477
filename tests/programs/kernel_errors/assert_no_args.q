% assert takes a condition (and an optional message), in kernels as in host code:
% without one it is an error at the call, not a crash.
% ==
% error: assert_no_args\.q:6:5: error: `assert` takes 1 to 2 arguments, got 0
function [] = __kernel__ check(y : vec, pos : int)
    assert()
    y[pos] = 1
end
y = zeros(4)
parallel_do(4, y, check)
