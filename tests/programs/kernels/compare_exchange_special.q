% The compare-exchange of a sorting network (`if up: s[i] = min(a, b); s[i + j] =
% max(a, b) else: the other way`) over NaN, signed zeros and infinities, in shared
% memory with one thread per pair: `min` and `max` of equal operands (+0 and -0) give
% the first one and of a NaN the other one, on every tier, also where the C++ tier's
% scalar code picks the operand by a mask of its bits (`bz_self`) instead of a branch.
% 1 / x tells the zeros apart; 24 values, one block of 12 threads.
% ==
% stdout {
% [Inf,Inf,Inf,Inf,-Inf,-Inf,-Inf,-Inf]
% [2,2,1,1,NaN,NaN,3,-3]
% [-1,5,4,-2,0.5,7,6,0]
% [Inf,Inf,Inf,Inf,-Inf,-Inf,-Inf,-Inf]
% [2,2,1,1,3,-3,3,-3]
% [-1,-2,4,5,0.5,0,6,7]
% }
function [] = __kernel__ cex(x : vec'unchecked, y : vec'unchecked, j : int, k : int, _
                             pos : int, blkpos : int, blkdim : int)
    s = shared(2 * blkdim)
    t = blkpos
    base = 2 * blkdim * int(pos / blkdim)
    s[t] = x[base + t]
    s[t + blkdim] = x[base + t + blkdim]
    syncthreads
    i = 2 * t - and(t, j - 1)
    a = s[i]
    b = s[i + j]
    if and(i, k) == 0
        s[i] = min(a, b)
        s[i + j] = max(a, b)
    else
        s[i] = max(a, b)
        s[i + j] = min(a, b)
    endif
    syncthreads
    y[base + t] = s[t]
    y[base + t + blkdim] = s[t + blkdim]
endfunction

nan = 0 / 0
% pairs (i, i + 1) under j = 1, k = 2 (up, down, up, ...), then (i, i + 2) under j = 2,
% k = 8 (four up, four down)
x = [0.0, -0.0, 0.0, -0.0, -0.0, 0.0, -0.0, 0.0, nan, 2, 1, nan, nan, nan, 3, -3, _
     -1, 5, 4, -2, 7, 0.5, 6, 0.0]
y = zeros(24)
parallel_do([[12], [12]], x, y, 1, 2, cex)
print 1 ./ y[0..7]
print y[8..15]
print y[16..23]
z = zeros(24)
parallel_do([[12], [12]], y, z, 2, 8, cex)
print 1 ./ z[0..7]
print z[8..15]
print z[16..23]
