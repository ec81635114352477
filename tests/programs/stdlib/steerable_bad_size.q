% steerable_forward needs sides divisible by 2^J; otherwise a located error names them.
% ==
% error: steerable_forward: the image sides \(24x20\) must be divisible by 2\^J = 8
import "steerable.q"
p = steerable_forward(ones(24, 20), 3, 4)
