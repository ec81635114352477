% A named argument that no overload has as a parameter is a located error.
% ==
% error: named_overload_unknown\.q:10:12: error: no overload of `area` has a parameter named `side`
function y = area(width : scalar, height : scalar)
    y = width * height
end
function y = area(radius : scalar)
    y = 3 * radius * radius
end
print area(side := 3)
