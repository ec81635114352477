% `print a, b, c` concatenates without separators; `print(x)` prints one value.
% ==
% stdout {
% 1abc2.5
% [1,2]
% 7
% x=3, y=[4,5]
% }
print 1, "abc", 2.5
print([1, 2])
print(3 + 4)
x = 3
print "x=", x, ", y=", [4, 5]
