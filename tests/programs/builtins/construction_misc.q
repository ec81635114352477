% cell, uninit and mirror_ext (the index that a 'mirror read uses: -1 -> 1, N -> N-1).
% ==
% stdout {
% 3
% [1,2]
% [2,3]
% 1 3 0 2 2
% }
c = cell(3)
c[0] = "a"
c[1] = [1, 2]
c[2] = 7
print numel(c)
print c[1]
u = uninit(2, 3)
print size(u)
print mirror_ext(1, 4), " ", mirror_ext(-3, 4), " ", mirror_ext(0, 4), " ", mirror_ext(-2, 4), " ", mirror_ext(5, 4)
