% Planted race: a read-modify-write of one counter without an atomic update.
function [] = __kernel__ count_positive(n : vec, x : vec, pos : int)
    if x[pos] > 0
        n[0] = n[0] + 1
    end
end

x = [1, -2, 3, 4, -5, 6, 7, -8]
n = zeros(1)
parallel_do(numel(x), n, x, count_positive)
print n[0] >= 1
