% Found by the kernel fuzzer (seed 49): threads fail a 'checked read inside one branch
% of `?:`; the others run on, and a later statement of the same kernel must see the
% masks as they were (the failing read left its branch mask behind). Every tier reports
% the failure of the lowest failing position, a read of af[200].
% ==
% error: (?s)failure_in_select_branch\.q:9:48: error: \(parallel_do\) k - index 200 is out of bounds for dimension 0 of size 19: line 9
function [] = __kernel__ k(ai : vec[int]'safe, af : vec'checked, ac : cvec'safe, au : vec[uint8]'clamped, yf : vec, yc : cvec, pos : int)
    if mod(ai[pos + 2], ai[pos - 3]) >= shr(ai[max(pos, 5)], ai[pos - 2])
        yf[pos] = ((ac[pos + 1] != (1 + 2i)) ? af[int(au[numel(ai) - 1 - pos])] : mod(af[pos], af[pos])) + -0.1
    end
    yc[pos] = af[numel(ai) - 1 - pos]
end
n = 19
ai = int([31, -8, 31, 3, -1, 100, 7, -1, -8, 3, 32, 7, -100, 65535, 0, 65535, 0, 65535, 100])
af = [0.5, 1, 3, 100.75, 1e10, -2.25, 1e10, -0.001, 2.5, 100.75, 100.75, 1e10, -0.001, -0.001, -2.25, 0, -1, -2.25, 2.5]
ac = [1 + 1i, 0.5 - 0.25i, 3, 2 + 3i, 0.5 - 0.25i, 2 + 3i, 2 + 3i, 3, 0.5 - 0.25i, 3, 2 + 3i, 0, 2 + 3i, 0, 3, -2 - 0.5i, 1 + 1i, 2 + 3i, 2 + 3i] + 0i
au = uint8([200, 16, 16, 16, 7, 128, 200, 0, 1, 255, 0, 128, 128, 7, 255, 1, 200, 255, 0])
ai[16] = -2147483647 - 1
parallel_do(n, ai, af, ac, au, zeros(n), zeros(n) + 0i, k)
