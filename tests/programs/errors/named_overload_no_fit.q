% Named arguments that each exist somewhere, but fit no single overload together.
% ==
% error: named_overload_no_fit\.q:10:7: error: no overload of `area` fits these arguments
function y = area(width : scalar, height : scalar)
    y = width * height
end
function y = area(radius : scalar)
    y = 3 * radius * radius
end
print area(radius := 1, height := 2)
