% An unterminated string literal is reported where it starts.
% ==
% error: unclosed_string\.q:4:5: error: .*(unterminated|unclosed).*string
s = "abc
print s
