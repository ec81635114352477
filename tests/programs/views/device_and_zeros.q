% Views share the device copy and the lazy zeros of their array. A `zeros` array is
% made where it is first used: a view of it reads zeros on the host, and a kernel
% writing through a view of a fresh `zeros` fills the array it names. An array
% computed by a fused kernel (on a GPU it exists only in device memory) is read on the
% host through a view, then written by a kernel through the array and read again
% through the view (the view's host read downloads once, like the array's).
% ==
% options { --fuse-min 0 }
% stdout {
% 0[1,256]
% 65280127[16,16]
% 349152[1,16384]
% 5381920
% [0,4][4,0]0
% }
z = zeros(16, 16)
w = reshape(z, [256])
print w[17], size(w)
parallel_do(256, w, __kernel__ (a : vec, pos : int) -> _
    a[pos] = 2 * pos)
print sum(z), z[7, 15] / 2, size(z)
a = ones(128, 128) * 3
b = reshape(a, [16384])
print b[5], sum(b), size(b)
parallel_do(size(a), a, __kernel__ (x : mat, pos : ivec2) -> _
    x[pos] = x[pos] + 2)
print b[16383], a[0, 0] - 2, sum(b)
e = zeros(0, 4)
print size(e), size(reshape(e, [4, 0])), numel(reshape(e, 0))
