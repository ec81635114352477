% Labelled loops with `break label` and `continue label`; plain break/continue affect the inner loop.
% ==
% stdout {
% 2 3
% 12
% 9
% }
found = [-1, -1]
outer:
for i = 0..9
    for j = 0..9
        if i * j == 6 && i > 1
            found = [i, j]
            break outer
        end
    end
end
print found[0], " ", found[1]
count = 0
rows:
for i = 0..3
    for j = 0..3
        if j > 2
            continue rows
        end
        count += 1
    end
end
print count
m = 0
for i = 0..2
    for j = 0..5
        if j == 3
            break
        end
        m += 1
    end
end
print m
