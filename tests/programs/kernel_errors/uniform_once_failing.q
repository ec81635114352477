% A uniform assignment after a statement where one thread fails (the native CPU tier
% runs the assignments at the ends of the statements between barriers once per
% block): thread 2 of the first block fails its assert between the two assignments
% to `a`, and the launch reports its failure.
% ==
% error: (?s)uniform_once_failing\.q:11:5: error: \(parallel_do\) one_fails - assertion failed: line 11.*uniform_once_failing\.q:18:1: note: `one_fails` was launched here
function [] = __kernel__ one_fails(y : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    a = blkdim * 3
    s[blkpos] = a + blkpos
    assert(blkpos != 2 || pos > 4)
    a = a + 1
    syncthreads
    y[pos] = a + s[blkpos]
endfunction

y = zeros(8)
parallel_do([[8], [4]], y, one_fails)
print y
