% The builtin a user would write instead, for benches/loops/jdv_sum.
M = 1024     % bench: size
N = 1024     % bench: size
C = 3        % bench: size
reps = 10    % bench: size
import "../common.q"

im = make_image(M, N, C)
total = 0
for k = 0..reps
    if k > 0
        tic()
    end
    total = sum(im)
    if k > 0
        toc("rep")
    end
end
print "checksum: ", total
