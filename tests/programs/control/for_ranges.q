% for loops: inclusive ranges, positive, negative and real steps; the loop variable survives.
% ==
% stdout {
% 0 1 2 3
% 1 4 7 10
% 5 3 1
% 0 0.5 1 1.5
% 3
% 5
% }
s = ""
for i = 0..3
    s = strcat(s, sprintf("%d ", i))
end
print s
s = ""
for i = 1..3..10
    s = strcat(s, sprintf("%d ", i))
endfor
print s
s = ""
for i = 5..-2..0
    s = strcat(s, sprintf("%d ", i))
end
print s
s = ""
for x = 0..0.5..1.5
    s = strcat(s, sprintf("%g ", x))
end
print s
for k = 0..3
end
print k
n = 0
for j = 10..-1..6
    n += 1
end
print n
