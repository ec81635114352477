% vertcat, horzcat, cat, circshift, fliplr, flipud and rot90 (counter-clockwise).
% Reference: NumPy, np.vstack, np.hstack, np.stack(axis=2), np.roll, np.fliplr,
% np.flipud and np.rot90.
% ==
% stdout {
% [ [1,2,3],
%   [4,5,6],
%   [7,8,9] ]
% [ [1,2,3,10],
%   [4,5,6,11] ]
% [2,3,2]
% [ [10,20,30],
%   [40,50,60] ]
% [1,2,3,4,5]
% [4,5,1,2,3]
% [2,3,4,5,1]
% [ [4,5,6],
%   [1,2,3] ]
% [ [5,6,4],
%   [2,3,1] ]
% [ [3,1,2],
%   [6,4,5] ]
% [ [3,2,1],
%   [6,5,4] ]
% [ [4,5,6],
%   [1,2,3] ]
% [5,4,3,2,1]
% [ [3,6],
%   [2,5],
%   [1,4] ]
% [ [6,5,4],
%   [3,2,1] ]
% [ [4,1],
%   [5,2],
%   [6,3] ]
% 1
% [3,2,2]
% int
% [1.5,2,3]
% }
A = [[1, 2, 3], [4, 5, 6]]
print vertcat(A, [7, 8, 9])
print horzcat(A, [[10], [11]])
c = cat(2, A, 10 * A)
print size(c)
print c[:, :, 1]
x = [1, 2, 3, 4, 5]
print horzcat([1, 2], 3, [4, 5])
print circshift(x, 2)
print circshift(x, -1)
print circshift(A, 1)
print circshift(A, [1, -1])
print circshift(A, 1, 1)
print fliplr(A)
print flipud(A)
print fliplr(x)
print rot90(A)
print rot90(A, 2)
print rot90(A, 3)
print sum(abs(rot90(A, -1) - rot90(A, 3))) == 0
% each channel of a cube turns on its own
r = rot90(c)
print size(r)
print type(vertcat(int([1, 2]), int([3, 4]))[0, 0])
print horzcat(1.5, int([2, 3]))
