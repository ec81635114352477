% String literals are raw: a backslash is an ordinary character (escapes belong to
% printf and sprintf formats). A file that is not UTF-8 is read as Windows-1252.
% ==
% stdout {
% C:\out\
% 7
% a	b
% cafÃ©
% }
p = "C:\out\"
print p
print numel(p)
printf("a\tb\n")
% a Windows-1252 comment: café
print "café"
