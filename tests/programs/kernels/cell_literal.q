% A typed cell literal (`vec[mat]`) passed to a kernel lambda: the kernel adds the
% second matrix to the first, element by element.
% ==
% stdout {
% vec[mat]
% [ [2,1,1,1],
%   [1,2,1,1],
%   [1,1,2,1],
%   [1,1,1,2] ]
% [ [1,1,1,1],
%   [1,1,1,1],
%   [1,1,1,1],
%   [1,1,1,1] ]
% }
d = `eye(4), ones(4, 4)'
print type(d)
parallel_do(size(d[0]), d, __kernel__ (d : vec[mat], pos : ivec2) -> d[0][pos] += d[1][pos])
print d[0]
print d[1]
