% fft1/fft2/fft3 of small inputs and round trips through the inverses.
% ==
% stdout {
% [10+0i,-2+2i,-2+0i,-2-2i]
% [ [10+0i,-2+0i],
%   [-4+0i,0+0i] ]
% 1
% 1
% 1
% 36+0i
% }
print fft1([1, 2, 3, 4])
print fft2([[1, 2], [3, 4]])
x = [0.5, -1, 2, 3, 4.25, -2]
print max(abs(ifft1(fft1(x)) - x)) < 1e-4
M = [[1, 2, 3], [4, 5, 6]]
print max(abs(ifft2(fft2(M)) - M)) < 1e-4
C = reshape(1..8, [2, 2, 2])
print max(abs(ifft3(fft3(C)) - C)) < 1e-4
print fft3(C)[0, 0, 0]
