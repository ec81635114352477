% Cell literals close with an apostrophe or with the acute accent.
% ==
% stdout {
% 3
% 2
% 0+3i
% 4
% [1,2]
% hi
% }
a = `1, 2, 3j'
print numel(a)
print a[1]
print a[2]
b = `[1, 2], "hi", 4´
print b[2]
print b[0]
print b[1]
