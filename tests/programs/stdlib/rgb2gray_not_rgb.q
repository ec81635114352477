% colortransform.q's functions need an M x N x 3 cube.
% ==
% error: rgb2gray: expects an M x N x 3 cube
import "colortransform.q"
print rgb2gray(ones(3, 3))
