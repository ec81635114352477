% fix (rounding toward zero) and sign are element-wise: the same values on the host, in
% fused whole-array expressions (--fuse-min 0) and in kernels.
% Reference (NumPy): np.fix(x), np.sign(x).
% ==
% options { --fuse-min 0 }
% stdout {
% [-2,-1,-3,1,2,3] [-1,-1,-1,1,1,1]
% [-2,-1,-3,1,2,3] [-1,-1,-1,1,1,1]
% [-2,-1,-3,1,2,3] [-1,-1,-1,1,1,1]
% }
function [] = __kernel__ k(x : vec, a : vec, b : vec, pos : int)
    a[pos] = fix(x[pos])
    b[pos] = sign(x[pos])
endfunction
x = [-2.5, -1.2, -3.7, 1.9, 2.5, 3.1]
print fix(x), " ", sign(x)
print fix(x * 1) + 0, " ", sign(x * 1) + 0
a = zeros(6)
b = zeros(6)
parallel_do(6, x, a, b, k)
print a, " ", b
