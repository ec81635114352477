% block_reduce names its reductions.
% ==
% error: <blazar>/parallelblocks\.q:[0-9]+:[0-9]+: error: block_reduce: unknown reduction median \(use sum, mean, min or max\)
import "parallelblocks.q"
r = block_reduce(ones(4, 4), [2, 2], "median")
