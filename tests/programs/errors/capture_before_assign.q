% A lambda that captures a variable no earlier statement assigns is refused by `check`,
% as `run` would refuse it when it creates the lambda.
% ==
% error: capture_before_assign\.q:6:13: error: variable `gain` is captured before it is assigned
function y = amplify(x)
    scale = v -> v * gain
    gain = 2
    y = scale(x)
end
print amplify(3)
