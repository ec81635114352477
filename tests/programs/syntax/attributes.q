% Attributes and pragmas before ordinary host loops do not change the results.
% ==
% stdout {
% 45
% [0,1,4,9,16]
% 120
% 10
% 6
% }
total = 0
#pragma force_parallel
for i = 0..9
    total += i
end
print total
sq = zeros(5)
!parallel for
for i = 0..4
    sq[i] = i * i
end
print sq
{!kernel_transform enable="localwindow"}
p = 1
#pragma force_serial
for i = 1..5
    p *= i
end
print p
!kernel_transform enable="sharedmemcaching"
s = 0
for i = 0..4
    s += i
end
print s
acc = 0
#pragma force_parallel
for m = 0..1
    for n = 0..2
        acc += 1
    end
end
print acc
