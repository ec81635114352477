% An integer-valued vec passed where an ivecN is declared converts, as a real scalar
% passed to an int does, for functions and kernels alike.
% ==
% stdout {
% 7 vec[int]
% [ [0,0,0,0],
%   [0,0,0,0],
%   [0,0,0,9] ]
% }
function s = corner_sum(p : ivec2)
    print p[0] + p[1], " ", type(p)
    s = 0
end
corner_sum([3.0, 4.0])
function [] = __kernel__ mark(img : mat, at : ivec2, pos : ivec2)
    if pos[0] == at[0] && pos[1] == at[1]
        img[pos] = 9
    end
end
img = zeros(3, 4)
where = [2, 3] * 1.0
parallel_do(size(img), img, where, mark)
print img
