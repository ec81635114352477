% Named arguments that fit two overloads taking them in different orders.
% ==
% error: (?s)named_overload_ambiguous\.q:10:7: error: the named arguments fit several overloads of `label` that take them in different orders.*named_overload_ambiguous\.q:4:14: note: this `label` fits.*named_overload_ambiguous\.q:7:14: note: this `label` fits
function y = label(count : int, name : string)
    y = sprintf("%s: %d", name, count)
end
function y = label(name : string, count : int)
    y = sprintf("%d x %s", count, name)
end
print label(name := "apples", count := 3)
