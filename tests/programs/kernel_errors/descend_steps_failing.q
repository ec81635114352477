% A scan step (a read step and an update step around a barrier, which the native CPU
% tier may run as one loop from the highest thread down) in a block where thread 1
% stopped before it: the others run the step, and the launch reports thread 1's
% failure.
% ==
% error: (?s)descend_steps_failing\.q:10:5: error: \(parallel_do\) failing_step - assertion failed: line 10.*descend_steps_failing\.q:24:1: note: `failing_step` was launched here
function [] = __kernel__ failing_step(y : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[blkpos] = pos
    assert(blkpos != 1 || pos > 4)
    syncthreads
    d = 1
    v = 0.0
    if blkpos >= d
        v = s[blkpos - d]
    endif
    syncthreads
    s[blkpos] = s[blkpos] + v
    syncthreads
    y[pos] = s[blkpos]
endfunction

y = zeros(8)
parallel_do([[8], [4]], y, failing_step)
print y
