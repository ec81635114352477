% build_dwt's transform needs rows and columns divisible by 2^J; the error points into
% the module, then at the calls.
% ==
% error: <blazar>/multirestransforms\.q:[0-9]+:[0-9]+: error: build_dwt: 12 x 10 is not divisible by 2\^2
import "multirestransforms.q"
[S, S_H] = build_dwt("db4", 2)
w = S(ones(12, 10))
