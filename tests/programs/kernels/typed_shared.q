% Shared memory takes the element type its declaration gives: an integer histogram per
% block (`bins : vec[int] = shared(16)`), combined into a global histogram, checked
% against a host count. Integer atomics are exact whatever the order.
% ==
% stdout {
% vec[int]
% 1
% 480
% }

function [] = __kernel__ block_hist(x : vec, h : vec[int], pos : int, blkpos : int, blkdim : int)
    bins : vec[int] = shared(16)
    if blkpos < 16
        bins[blkpos] = 0
    endif
    syncthreads
    bins[int(x[pos])] += 1
    syncthreads
    if blkpos < 16
        h[blkpos] += bins[blkpos]
    endif
endfunction

n = 480
x = zeros(n)
for i = 0..n - 1
    x[i] = mod(i * 7 + 3, 16)
endfor
h = int(zeros(16))
parallel_do([[n], [32]], x, h, block_hist)
expected = int(zeros(16))
for i = 0..n - 1
    expected[x[i]] += 1
endfor
print type(h)
print sum(h == expected) == 16
print sum(h)
