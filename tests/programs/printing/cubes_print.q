% Cubes print as nested matrices, one row per line.
% ==
% stdout {
% [ [ [1,2],
%     [3,4] ],
%   [ [5,6],
%     [7,8] ] ]
% [ [ [0,0] ],
%   [ [0,0] ] ]
% }
print reshape(1..8, [2, 2, 2])
c = zeros(2, 1, 2)
print c
