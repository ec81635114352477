% N-d arrays: zeros(2,2,2,2) is a cube{4}.
% ==
% stdout {
% cube{4}
% 4
% 16
% [2,2,2,2]
% 5
% 1
% }
a = zeros(2, 2, 2, 2)
print type(a)
print ndims(a)
print numel(a)
print size(a)
a[1, 0, 1, 1] = 5
print a[1, 0, 1, 1]
print sum(a) / 5
