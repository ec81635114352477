% Stream compaction in three kernels: a predicate marks the values to keep (and counts
% them in a kernel output), an exclusive scan of the marks in shared memory gives each
% kept value its slot, and a scatter writes it there. Checked against a host loop.
% ==
% stdout {
% 13
% 1
% [48,46,44,42,49,47,45,43]
% }
function [count : int] = __kernel__ mark(x : vec, flags : vec, threshold : scalar, pos : int)
    keep = x[pos] > threshold
    flags[pos] = keep
    if keep
        count += 1
    endif
endfunction

% Exclusive scan of one block: Hillis-Steele inclusive scan, shifted by one.
function [] = __kernel__ exclusive_scan(flags : vec, slots : vec, blkpos : int, blkdim : int)
    buf = shared(2, blkdim)
    cur = 0
    buf[0, blkpos] = blkpos > 0 ? flags[blkpos - 1] : 0
    syncthreads
    offset = 1
    while offset < blkdim
        nxt = 1 - cur
        buf[nxt, blkpos] = blkpos >= offset ? buf[cur, blkpos] + buf[cur, blkpos - offset] : buf[cur, blkpos]
        syncthreads
        cur = nxt
        offset *= 2
    endwhile
    slots[blkpos] = buf[cur, blkpos]
endfunction

function [] = __kernel__ scatter(x : vec, flags : vec, slots : vec, out : vec, pos : int)
    if flags[pos] != 0
        out[slots[pos]] = x[pos]
    endif
endfunction

N = 64
x = zeros(N)
for i = 0..N - 1
    x[i] = mod(i * 37 + 11, 50)
end
flags = zeros(N)
count = parallel_do(N, x, flags, 40, mark)
print count
slots = zeros(N)
parallel_do([[N], [N]], flags, slots, exclusive_scan)
out = zeros(count)
parallel_do(N, x, flags, slots, out, scatter)

expected = zeros(count)
k = 0
for i = 0..N - 1
    if x[i] > 40
        expected[k] = x[i]
        k += 1
    end
end
print k == count && sum(abs(out - expected)) == 0
print out[0..7]
