% A named argument that is no parameter names the closest parameter.
% ==
% error: (?s)did_you_mean_named_argument\.q:7:16: error: `scale` has no parameter or field named `factr`.*did you mean `factor`\?
function y = scale(x, factor)
    y = x * factor
end
print scale(2, factr := 3)
