% Loops that must keep their order run serially, whatever their size: a value carried
% from one iteration to the next (an element or a scalar), `break`, an early `return`,
% printing, a temporary read after the loop, and two names for one written array
% (found when the loop starts). `blazar emit loops` says why for each.
% ==
% stdout {
% scan: 8386560 4095
% carried: 4095
% break: 100
% return: 77
% 0
% 1
% print: done
% last: 8190
% alias: 4096
% }
n = 4096
x = zeros(n)
for i = 0..n - 1
    x[i] = i
end
y = zeros(n)
y[0] = x[0]
for i = 1..n - 1
    y[i] = y[i - 1] + x[i]
end
print "scan: ", y[n - 1], " ", y[n - 1] - y[n - 2]

prev = 0
z = zeros(n)
for i = 0..n - 1
    z[i] = prev
    prev = i
end
print "carried: ", prev

hit = -1
for i = 0..n - 1
    if x[i] == 100
        hit = i
        break
    end
end
print "break: ", hit

function k = find_first(a, v)
    k = -1
    for i = 0..numel(a) - 1
        if a[i] == v
            k = i
            return
        end
    end
end
print "return: ", find_first(x, 77)

for i = 0..1
    print i
end
print "print: done"

t = 0
for i = 0..n - 1
    t = 2 * i
    y[i] = t
end
print "last: ", t

a = zeros(n + 2)
b = a
for i = 1..n + 1
    a[i] = b[i - 1] + 1
end
print "alias: ", a[n + 1] - 1
