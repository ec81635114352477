% A `;` before the `)` that closes a call whose argument is a lambda ends the lambda's
% statement.
% ==
% stdout {
% 7
% 9
% }
function [] = call(g)
  g()
end
s = object()
s.v = 0
call(() -> (s.v = 7);)
print s.v
call(() -> (s.v = s.v + 1; s.v = s.v + 1);)
print s.v
