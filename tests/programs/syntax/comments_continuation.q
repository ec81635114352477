% Comments, `_` continuation and implicit continuation inside ( [ and after operators.
% ==
% stdout {
% 6
% [1,2,3,4]
% 10
% 15
% 7
% }
a = 1 + 2 + _
    3          % a trailing comment
%% a double-percent line is just a comment
print a
v = [1, 2,
     3, 4]
print v
s = max(10,
        4)
print s
t = 1 + 2 +
    3 + 4 +
    5
print t
u = (3 +
     4)
print u
