% Statement-bodied lambdas as interactive tools write their callbacks: the statements of
% a parenthesised body are separated by `;` or by line breaks (inside the call's
% brackets), a `;` may follow the last one and the body, and statements on the lines
% after the body belong to it up to the `,` or `)` that ends the argument.
% ==
% stdout {
% 2 6
% 5 16
% 7 1
% 9 16
% 12
% }
function [] = call0(f)
    f()
end
function [] = bump(t)
    t.b = t.b + 10
end
s = object()
s.a = 1
s.b = 0

call0(() -> (s.a = 2;
             s.b = s.a * 3;);)
print s.a, " ", s.b

call0(() -> (s.a = 5;)
            bump(s))
print s.a, " ", s.b

call0(() -> (s.a = 7
             s.b = 1))
print s.a, " ", s.b

g = () -> (s.a = 9;)
h = () -> (s.b = 16;)
g()
h()
print s.a, " ", s.b

% Two lambdas, each with its own body, separated by the comma.
function [] = both(f, k)
    f()
    k()
end
both(() -> (s.a = 3;)
            bump(s),
     () -> (s.a = s.a * 4;))
print s.a
