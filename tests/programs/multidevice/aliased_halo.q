% One array passed to two parameters of a kernel: written through one, read through
% the other one row further on. Odd rows take the even row after them, which no
% thread writes, so the answer is the same in any order; split over devices by rows,
% a band reads a row of the next band through the second parameter, and must find it
% there as if the array were not written.
% ==
% stdout {
% 1022 1024 2048 2050 4094
% 8384512
% }
function [] = __kernel__ shift(x : vec, y : vec, pos : int)
    if mod(pos, 2) == 1
        y[pos] = x[pos + 1]
    endif
endfunction
x = (0..4095) * 1.0
parallel_do(numel(x), x, x, shift)
print x[1021], " ", x[1023], " ", x[2047], " ", x[2049], " ", x[4093]
print sum(x)
