% An unexpected token is reported where it stands, with no follow-up errors about names it left undefined.
% ==
% error: (?s)syntax_unexpected_token\.q:5:9: error: expected an expression, found `\)`.*blazar: 1 error found
a = 1
b = a + )
print b
