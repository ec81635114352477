% Double- and single-quoted strings print raw; numel of a string is its length.
% ==
% stdout {
% hello
% world
% 5
% hello world
% a%b
% }
a = "hello"
b = 'world'
print a
print b
print numel(a)
print a, " ", b
print "a%b"
