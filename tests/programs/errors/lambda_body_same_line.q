% A statement after a lambda's statement body belongs to it only on a new line: on the
% same line, the argument must end there.
% ==
% error: lambda_body_same_line\.q:10:24: error: expected `,` or `\)`, found `bump`
function [] = call0(f)
    f()
end
s = object()
s.a = 1
call0(() -> (s.a = 5;) bump(s))
