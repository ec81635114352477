% A circular image copied through indices that run past both edges: the read wraps
% around, and the writes that land outside the destination are dropped: of the six
% rows and columns -2..3 only 0..3 land in B.
% ==
% stdout {
% [ [0,1,2,3,0,0],
%   [10,11,12,13,0,0],
%   [20,21,22,23,0,0],
%   [30,31,32,33,0,0],
%   [0,0,0,0,0,0],
%   [0,0,0,0,0,0] ]
% [ [55,50,51,52,53,54],
%   [5,0,1,2,3,4] ]
% }
A : mat'circular = zeros(6, 6)
for i = 0..5
    for j = 0..5
        A[i, j] = 10 * i + j
    end
end
B = zeros(size(A))
B[-2..3, -2..3] = A[-2..3, -2..3]
print B
print A[-1..0, -1..4]
