% A function that never assigns its output is an error when the output is used.
% ==
% error: missing_output\.q:7:5: error: output `y` of `forgetful` was never assigned
function y = forgetful(x)
    z = x + 1
end
a = forgetful(2)
