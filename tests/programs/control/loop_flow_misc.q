% continue in while and repeat loops, break from inside a match arm, labelled continue on a while loop.
% ==
% stdout {
% 1 3 5
% 4
% stop at 3
% 4
% }
i = 0
s = ""
while i < 6
    i += 1
    if mod(i, 2) == 0
        continue
    end
    s = strcat(s, sprintf("%d ", i))
end
print s
k = 0
total = 0
repeat
    k += 1
    if k == 2
        continue
    end
    total += k
until k >= 3
print total
for n = 0..10
    match n with
    | 3 ->
        print "stop at ", n
        break
    | _ -> x = n
    end
end
count = 0
r = 0
rows:
while r < 2
    r += 1
    for c = 0..5
        if c >= 2
            continue rows
        end
        count += 1
    end
end
print count
