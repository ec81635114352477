% `s = strcat(s, ...)` appends to s's own text when no other value shares it: values
% copied from s before keep their text, an argument that is s itself is read before
% the append, a parameter appended to in a function leaves the caller's variable as it
% was, and numbers are formatted as `print` shows them.
% ==
% stdout {
% 1,2,3,4,5,
% 1,2,3,4,5,
% 1,2,3,4,5,x
% 1,2,3,4,5,x1,2,3,4,5,x
% 1,2,3,4,5,x1,2,3,4,5,x
% 1,2,3,4,5,x1,2,3,4,5,x1|2.5|2|2.5|3|2.5|
% a
% a+++
% 7
% }
function r = grow(r, n)
    for k = 1..n
        r = strcat(r, "+")
    end
end
s = ""
for i = 1..5
    s = strcat(s, sprintf("%d,", i))
end
print s
t = s
s = strcat(s, "x")
print t
print s
s = strcat(s, s)
print s
u = s
for k = 1..3
    s = strcat(s, k, "|", 2.5, "|")
end
print u
print s
a = "a"
b = grow(a, 3)
print a
print b
print numel(strcat(b, "xyz"))
