% A read step and an update step around a barrier (`v = s[blkpos - d]`, then
% `s[blkpos] = s[blkpos] + v`), which the native CPU tier may run as one loop over the
% threads from the highest down: block sizes that are not powers of two, a step that
% reads the thread's own element (d = 0), steps past the block (d > blkdim), a step
% that reads upwards (d < 0: the threads must not run fused), d loaded from memory,
% a shared array shorter than the block (writes past it are skipped, reads give 0),
% a second shared array read on both sides, a value of the read step read after the
% steps, and a per-thread offset (not fused).
% ==
% stdout {
% [1,3,6,10,15,21,28]
% [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100]
% [2,6,10,14,18,22,26]
% [3,5,7,9,11,13,7]
% [8,12,16,28,36,28,34]
% [1,3,6,4,9,15]
% [20,24]
% [1,1,4,0,500,6,11,19,0,1000]
% [1,1,4,7,515,6,11,19,27,1040]
% [2,3,4,8,9,10,14,15,16,20]
% }
function [] = __kernel__ steps(x : vec, y : vec, ds : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[blkpos] = x[pos]
    syncthreads
    for j = 0..numel(ds) - 1
        d = int(ds[j])
        v = 0.0
        if blkpos >= d
            v = s[blkpos - d]
        endif
        syncthreads
        s[blkpos] = s[blkpos] + v
        syncthreads
    endfor
    y[pos] = s[blkpos]
endfunction

% The shared array is shorter than the block by `short` elements; the last step's `v`
% is read after the loop.
function [] = __kernel__ short_steps(x : vec, y : vec, short : int, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim - short)
    t = shared(blkdim)
    s[blkpos] = x[pos]
    t[blkpos] = blkpos
    syncthreads
    d = 1
    while d < blkdim
        v = 0.0
        if blkpos >= d
            v = s[blkpos - d] + t[blkpos]
        endif
        syncthreads
        s[blkpos] = s[blkpos] + v - t[blkpos]
        syncthreads
        d = d * 2
    endwhile
    y[pos] = s[blkpos] + 100 * v
endfunction

% The offset differs between threads: not a step of the fused form.
function [] = __kernel__ own_offsets(x : vec, y : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[blkpos] = x[pos]
    syncthreads
    m = mod(blkpos, 3)
    v = 0.0
    if blkpos >= m
        v = s[blkpos - m]
    endif
    syncthreads
    s[blkpos] = s[blkpos] + v
    syncthreads
    y[pos] = s[blkpos]
endfunction


x = [1, 2, 3, 4, 5, 6, 7]
y = zeros(7)
parallel_do([[7], [7]], x, y, [1, 2, 4], steps)
print y
x = ones(100)
y = zeros(100)
parallel_do([[100], [100]], x, y, [1, 2, 4, 8, 16, 32, 64], steps)
print y
% Steps that read the own element (d = 0), upwards (d < 0), past the block (d > 7).
x = [1, 2, 3, 4, 5, 6, 7]
y = zeros(7)
parallel_do([[7], [7]], x, y, [0, 1], steps)
print y
parallel_do([[7], [7]], x, y, [-1], steps)
print y
parallel_do([[7], [7]], x, y, [-2, 3, 9, 0], steps)
print y
% Two blocks of 3 threads, a step of 2.
x = [1, 2, 3, 4, 5, 6]
y = zeros(6)
parallel_do([[6], [3]], x, y, [2, 1, 3], steps)
print y
% A block of one thread.
y = zeros(2)
parallel_do([[2], [1]], [5, 6], y, [0, 1, 0], steps)
print y
% Shared arrays shorter than the block, and as long.
x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
y = zeros(10)
parallel_do([[10], [5]], x, y, 2, short_steps)
print y
parallel_do([[10], [5]], x, y, 0, short_steps)
print y
y = zeros(10)
parallel_do([[10], [10]], x, y, own_offsets)
print y
