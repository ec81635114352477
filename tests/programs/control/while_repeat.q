% while loops (end / endwhile) and repeat-until loops.
% ==
% stdout {
% 16
% 4
% 1
% 32
% }
x = 1
while x < 10
    x = x * 2
end
print x
n = 0
while n * n < 10
    n += 1
endwhile
print n
c = 0
repeat
    c += 1
until true
print c
y = 1
repeat
    y *= 2
until y > 20
print y
