% Indexing the result of a call, and field access on call results.
% ==
% stdout {
% 20
% 4
% [2,2,2]
% 7
% 6
% }
function v = tens(n)
    v = 10 * (1..n)
end
print tens(3)[1]
print size(zeros(3, 4))[1]
print ones(2, 3)[0, :] + 1
type pair : class
    a : scalar
    b : scalar
end
function p = make_pair(x)
    p = pair(x, x + 1)
end
print make_pair(6).b
print make_pair(6).a
