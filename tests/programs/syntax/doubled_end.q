% An `end` right after the `end` that closed a block (as in `y = x / 2; end` followed by
% another `end` line) closes nothing: it is ignored with a warning.
% ==
% stdout {
% 4
% 3
% }
function y = half(x)
    y = x / 2; end
end

function y = third(x)
    y = x / 3
end
end
print half(8)
print third(9)
