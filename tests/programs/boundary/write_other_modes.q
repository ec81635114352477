% 'circular, 'mirror and 'clamped write as 'safe: writes outside are ignored.
% ==
% stdout {
% [1,2,3]
% [1,2,3]
% [1,5,3]
% 1
% }
a : vec'circular = [1, 2, 3]
a[3] = 9
a[-1] = 9
print a
b : vec'mirror = [1, 2, 3]
b[4] = 9
print b
c : vec'clamped = [1, 2, 3]
c[7] = 9
c[1] = 5
print c
print a[3]
