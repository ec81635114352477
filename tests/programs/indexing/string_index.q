% Strings can be indexed by position and by range.
% ==
% stdout {
% h
% o
% ell
% 5
% }
s = "hello"
print s[0]
print s[4]
print s[1..3]
print numel(s)
