% A run-time error inside nested functions is followed by the calls that led to it,
% innermost first, each with its location and the call's text.
% ==
% error: (?s)call_stack\.q:8:13: error: index 3 is out of bounds.*call_stack\.q:12:9: note: `inner` was called here: inner\(v \+ 1\).*call_stack\.q:14:7: note: `outer` was called here: outer\(\[1, 2, 3\]\)\n
function y = inner(x)
    y = x
    for i = 0..numel(x)
        y = x[i + 1]
    end
end
function z = outer(v)
    z = inner(v + 1) * 2
end
print outer([1, 2, 3])
