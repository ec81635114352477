% In-place operators on global and shared data inside kernels are atomic: many threads
% update the same elements with +=, -= and *=. Minimum and maximum are computed with
% explicit code: a tree reduction in shared memory using min() and max().
% ==
% stdout {
% [300,-200,1024,64,50]
% [33,-31,8,497]
% 1
% -7 58
% 1
% }
function [] = __kernel__ global_updates(y : vec, pos : int)
    y[0] += 3
    y[1] -= 2
    if pos < 10
        y[2] *= 2
    endif
    y[3 + mod(pos, 2)] += 1
endfunction
y = zeros(5)
y[2] = 1
y[3] = 14
parallel_do(100, y, global_updates)
print y

function [] = __kernel__ shared_updates(y : mat, blkpos : int, blkidx : int)
    s = shared(4)
    if blkpos < 4
        s[blkpos] = 1
    endif
    syncthreads
    s[0] += 1
    s[1] -= 1
    if blkpos < 3
        s[2] *= 2
    endif
    s[3] += blkpos
    syncthreads
    if blkpos == 0
        for i = 0..3
            y[blkidx, i] = s[i]
        endfor
    endif
endfunction
r = zeros(4, 4)
parallel_do([[128], [32]], r, shared_updates)
print [r[2, 0], r[2, 1], r[2, 2], r[2, 3]]
same = 1
for b = 0..3
    same = same && r[b, 0] == 33 && r[b, 1] == -31 && r[b, 2] == 8 && r[b, 3] == 497
end
print same

function [lo : scalar, hi : scalar] = __kernel__ min_max(x : vec, blkpos : int, blkdim : int)
    a = shared(blkdim)
    b = shared(blkdim)
    a[blkpos] = x[blkpos]
    b[blkpos] = x[blkpos]
    syncthreads
    bit = 1
    while bit < blkdim
        if mod(blkpos, 2 * bit) == 0 && blkpos + bit < blkdim
            a[blkpos] = min(a[blkpos], a[blkpos + bit])
            b[blkpos] = max(b[blkpos], b[blkpos + bit])
        endif
        syncthreads
        bit *= 2
    endwhile
    if blkpos == 0
        lo += a[0]
        hi += b[0]
    endif
endfunction
x = zeros(50)
for i = 0..49
    x[i] = mod(i * 17, 66) - 7
end
[lo, hi] = parallel_do([[50], [50]], x, min_max)
print lo, " ", hi
print lo == min(x) && hi == max(x)
