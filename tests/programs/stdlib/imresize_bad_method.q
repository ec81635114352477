% imresize.q reports an unknown interpolation method by name.
% ==
% error: imresize: unknown method lanczos3 \(use nearest, bilinear or bicubic\)
import "imresize.q"
print imresize(ones(3, 3), 2, "lanczos3")
