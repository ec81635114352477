% pos2ind and ind2pos convert between positions and row-major linear indices.
% ==
% stdout {
% 6
% [1,2]
% 23
% [1,2,3]
% 64 64 1 512
% }
print pos2ind([3, 4], [1, 2])
print ind2pos([3, 4], 6)
print pos2ind([2, 3, 4], [1, 2, 3])
print ind2pos([2, 3, 4], 23)
print prevpow2(100), " ", prevpow2(64), " ", prevpow2(1), " ", prevpow2(1000)
