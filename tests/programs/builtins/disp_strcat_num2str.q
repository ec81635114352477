% disp prints a value on its own line; strcat joins strings; num2str gives print's text.
% ==
% stdout {
% [1,2,3]
% hello
% foobar
% x=2.5
% 12
% }
disp([1, 2, 3])
disp("hello")
print strcat("foo", "bar")
print strcat("x=", num2str(2.5))
print num2str(12)
