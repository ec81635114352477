% A histogram of small integers: every thread adds one to its value's bin with an
% atomic update, so threads that share a bin do not lose counts.
function [] = __kernel__ count_values(bins : vec'unchecked, vals : vec, pos : int)
    v = int(vals[pos])
    if v >= 0 && v < numel(bins)
        bins[v] += 1
    endif
endfunction

vals = [3, 1, 3, 0, 2, 3, 1, 9]
bins = zeros(4)
parallel_do(numel(vals), bins, vals, count_values)
print bins
