% With a class and functions of the same name, a named argument that is neither a
% parameter of a function nor a field of the class is an error where it is written.
% ==
% error: class_builder_unknown_field\.q:15:11: error: no overload of `point` has a parameter named `z`
type point : class
    x : int
    y : int
end
function p = point(px : int, py : int)
    p = point(x := px, y := py)
end
function p = point()
    p = point(x := -1, y := -1)
end
q = point(z := 1)
