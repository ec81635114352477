% conv (vectors), conv2 and filter2 (matrices) with the shapes "full", "same" (centred as
% MATLAB: the kernel's centre at floor(n/2), which differs from SciPy's for even
% kernels) and "valid"; filter2 correlates (the kernel is not flipped) and defaults to
% "same".
% Reference (NumPy/SciPy): np.convolve(u, v); full[n//2 : n//2+m]; np.convolve(u, v,
% 'valid'); scipy.signal.convolve2d(A, K) and its [1:5, 1:6] part; convolve2d(A, K,
% 'valid'); filter2 = convolve2d(A, K[::-1, ::-1]) then the same slice;
% scipy.signal.correlate2d(A, K, 'valid').
% ==
% stdout {
% [1,1,3,5.5,8,4.5,12,2.5]
% [3,5.5,8,4.5,12]
% [5.5,8]
% [ [0,1,4,7,10,8],
%   [5,16,11,-1,1,0],
%   [3,8,14,27,26,2],
%   [16,24,9,8,14,12],
%   [9,14,17,20,2,-5],
%   [3,7,11,15,19,5] ]
% [ [16,11,-1,1,0],
%   [8,14,27,26,2],
%   [24,9,8,14,12],
%   [14,17,20,2,-5] ]
% [ [8,14,27,26],
%   [24,9,8,14] ]
% [ [20,16,-2,1,6],
%   [9,22,28,27,4],
%   [18,10,9,22,17],
%   [9,11,13,1,0] ]
% [ [9,22,28,27],
%   [18,10,9,22] ]
% [4,6,8,-6] 1 0
% }
u = [1, 2, 3, 4, 5]
v = [1, -1, 2, 0.5]
print conv(u, v)
print conv(u, v, "same")
print conv(u, v, "valid")
A = mod(reshape(0..19, [4, 5]), 7)
K = [[1, 2], [0, -1], [3, 1]]
print conv2(A, K)
print conv2(A, K, "same")
print conv2(A, K, "valid")
print filter2(K, A)
print filter2(K, A, "valid")
print conv([1, 2, 3], [4, -2]), " ", size(conv(3, [1]), 1), " ", numel(conv([1, 2], [1, 2, 3], "valid"))
