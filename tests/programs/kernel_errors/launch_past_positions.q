% A launch whose extent is past what `pos` (an int) holds is a located error, not
% positions that wrap to negative values (issue 32, item 10).
% ==
% error: launch_past_positions\.q:11:1: error: \(parallel_do\) k - an extent of 3000000000 is past what the kernel's positions hold
function [] = __kernel__ k(y : vec[int], pos : int)
    if pos < 0
        y[0] = 1
    end
end
y = int(zeros(1))
parallel_do(3000000000, y, k)
print y
