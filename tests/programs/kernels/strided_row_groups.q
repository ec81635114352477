% Grid-stride loops whose body writes no memory (`for k = pos + off..stride..n - 1`: on
% the native tier each thread runs a few iterations in a row, `codegen-c/cpp/jam.rs`),
% then a shared-memory tree over a block of 96 threads (not a power of two). Every
% thread's float sum, int count and float maximum, and every block's total, equal bit
% for bit a host loop that adds in the thread's order and then the tree's. Sizes: 10007
% elements (no multiple of the block or the grid), offsets 0 and 5, a loop over fewer
% elements than threads (some threads run no iteration), one over exactly 4 rows, a loop
% that ends inside a group of 4 rows, a step (7) smaller than the block, and a loop
% whose values are read after it.
% ==
% stdout {
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% 1
% }
function [] = __kernel__ strided_parts(x : vec'unchecked, n : int, off : int, stride : int, _
                                       tot : vec'unchecked, cnt : vec[int]'unchecked, _
                                       big : vec'unchecked, last : vec[int]'unchecked, _
                                       bsum : vec'unchecked, _
                                       pos : int, blkpos : int, blkdim : int, blkidx : int)
    part = shared(blkdim)
    acc = 0.0
    c = 0
    m = -1.0
    k = 0
    for k = pos + off..stride..n - 1
        v = x[k]
        acc += v
        if v > 0.5
            c += 1
        endif
        m = max(m, v * (k - 3))
    endfor
    tot[pos] = acc
    cnt[pos] = c
    big[pos] = m
    last[pos] = k
    part[blkpos] = acc
    syncthreads
    w = blkdim
    while w > 1
        h = shr(w + 1, 1)
        if blkpos < w - h
            part[blkpos] = part[blkpos] + part[blkpos + h]
        endif
        syncthreads
        w = h
    endwhile
    if blkpos == 0
        bsum[blkidx] = part[0]
    endif
endfunction

% The loop variable indexes the input directly and is not read after the loop: the
% native tier tests once whether the loop stays inside the array (rows 4 at a time
% then) and otherwise reads past the end as 'unchecked' reads do (0), row by row.
% Each thread stores the sum of the thread at the mirror position of its block.
function [] = __kernel__ direct_parts(x : vec'unchecked, n : int, stride : int, _
                                      tot : vec'unchecked, pos : int, blkpos : int, blkdim : int)
    part = shared(blkdim)
    acc = 0.0
    for k = pos..stride..n - 1
        acc += x[k]
    endfor
    part[blkpos] = acc
    syncthreads
    tot[pos] = part[blkdim - 1 - blkpos]
endfunction

function [] = check_direct(x : vec, n : int, blocks : int, threads : int)
    nt = blocks * threads
    tot = zeros(nt)
    parallel_do([[1, nt], [1, threads]], x, n, nt, tot, direct_parts)
    ok = 1
    for p = 0..nt - 1
        acc = 0.0
        k = p
        while k <= n - 1
            if k < numel(x)
                acc += x[k]
            else
                acc += 0.0
            endif
            k += nt
        endwhile
        t = mod(p, threads)
        if !(acc == tot[p - t + threads - 1 - t])
            ok = 0
        endif
    endfor
    print ok
endfunction

function [] = check(x : vec, n : int, off : int, blocks : int, threads : int, stride : int)
    nt = blocks * threads
    tot = zeros(nt)
    cnt = int(zeros(nt))
    big = zeros(nt)
    last = int(zeros(nt))
    bsum = zeros(blocks)
    parallel_do([[1, nt], [1, threads]], x, n, off, stride, tot, cnt, big, last, bsum, strided_parts)
    % The same sums on the host, thread by thread, in each thread's order.
    ok_tot = 1
    ok_cnt = 1
    ok_big = 1
    ok_last = 1
    for p = 0..nt - 1
        acc = 0.0
        c = 0
        m = -1.0
        k = p + off
        lk = 0
        while k <= n - 1
            lk = k
            v = x[k]
            acc += v
            if v > 0.5
                c += 1
            endif
            m = max(m, v * (k - 3))
            k += stride
        endwhile
        if !(acc == tot[p])
            ok_tot = 0
        endif
        if c != cnt[p]
            ok_cnt = 0
        endif
        if !(m == big[p])
            ok_big = 0
        endif
        % After the loop its variable holds the last value run (0, as set before it, when none ran).
        if lk != last[p]
            ok_last = 0
        endif
    endfor
    % The tree of each block, on the host.
    ok_sum = 1
    for b = 0..blocks - 1
        part = tot[b * threads..b * threads + threads - 1]
        w = threads
        while w > 1
            h = shr(w + 1, 1)
            for t = 0..w - h - 1
                part[t] = part[t] + part[t + h]
            endfor
            w = h
        endwhile
        if !(part[0] == bsum[b])
            ok_sum = 0
        endif
    endfor
    print ok_tot
    print ok_cnt
    print ok_big
    print ok_last
    print ok_sum
endfunction

len = 10007
x = zeros(len)
for i = 0..len - 1
    x[i] = mod(i * 37, 101) / 97 + 1 / (i + 1)
endfor
% Many rows, the last one partial (10007 = 20 * 480 + 407).
check(x, len, 0, 5, 96, 480)
% A start offset: thread t starts at t + 5.
check(x, len, 5, 5, 96, 480)
% Fewer elements than threads: threads 300.. run no iteration.
check(x, 300, 0, 5, 96, 480)
% Exactly 4 full rows (4 * 480 elements), then none.
check(x, 1920, 0, 5, 96, 480)
% Three full rows and part of a fourth, in an array that goes on past them.
check(x, 1500, 0, 5, 96, 480)
% A step smaller than the block (each thread's values overlap the next threads').
check(x, 1000, 0, 2, 96, 7)
% Direct indexing: the whole array and a loop ending inside a group of rows. (A loop
% past the end of an 'unchecked' array reads what is there: 0 on the CPU tiers, whatever
% the memory holds on a GPU, so no case here depends on it.)
check_direct(x, len, 5, 96)
check_direct(x, 1500, 5, 96)
