% `w = copy(x); w[w > 200] = 200` on a program's first run, each statement timed alone
% (issue 26: 6.1 ms beyond the copy against CuPy's 0.95 ms on the H200 at 4096x4096x3).
% Both statements are one kernel each, with no copy to the host (`--profile`: the
% copies table is empty); on a first run each kernel is compiled first (the profile's
% `compile ms` column). Run with an empty cache, then again:
%   BLAZAR_CACHE_DIR=$(mktemp -d) blazar run --device cuda --profile mask_first_run.q
M = 4096
N = 4096
C = 3
import "common.q"

x = make_x(M, N, C)
tic()
w = copy(x)
toc("first copy")
tic()
w[w > 200] = 200
toc("first mask")
tic()
w = copy(x)
toc("second copy")
tic()
w[w > 200] = 200
toc("second mask")
print "checksum: ", sum(w)
