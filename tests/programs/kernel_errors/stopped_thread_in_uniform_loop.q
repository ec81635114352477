% A thread that fails inside a loop holding barriers stops there: it still reaches
% every barrier of the block (on CUDA it runs on with its work skipped), but none of
% its later statements has an effect. Thread 3 fails its assert in the first round
% and so never adds its 1 to s[3]; in the second round thread 0 reads c[s[3]] = c[3],
% which exists. Had thread 3 carried on, s[3] would be 4 and thread 0 (lower) would
% fail on c[4]. The reported error is thread 3's assert.
% ==
% error: (?s)stopped_thread_in_uniform_loop\.q:15:13: error: \(parallel_do\) rounds - assertion failed: line 15.*stopped_thread_in_uniform_loop\.q:27:1: note: `rounds` was launched here
function [] = __kernel__ rounds(y : vec, c : vec'checked, pos : int, blkpos : int)
    s = shared(4)
    s[blkpos] = blkpos
    for k = 0..1
        syncthreads
        if k == 0
            assert(blkpos != 3)
            s[blkpos] = s[blkpos] + 1
        else
            if blkpos == 0
                y[pos] = c[s[3]]
            endif
        endif
        syncthreads
    endfor
    y[pos] = s[blkpos]
end
y = zeros(4)
parallel_do([[4], [4]], y, zeros(4), rounds)
print y
