% Arrays have reference semantics; copy and deepcopy make independent data.
% ==
% stdout {
% [9,2,3]
% [9,2,3]
% [1,2,3]
% [7,2,3]
% [ [5,0],
%   [0,0] ]
% [ [0,0],
%   [0,0] ]
% 9
% 1
% }
A = [1, 2, 3]
B = A
B[0] = 9
print A
print B
C = [1, 2, 3]
D = copy(C)
D[0] = 7
print C
print D
M = zeros(2, 2)
N = M
N[0, 0] = 5
print M
P = copy(zeros(2, 2))
print P
cl = `[1, 2], [3, 4]'
cl2 = deepcopy(cl)
cl2[0][0] = 9
print cl2[0][0]
print cl[0][0]
