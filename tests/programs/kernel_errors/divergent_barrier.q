% Every thread of a block must reach a syncthreads: a barrier under a condition on
% blkpos is rejected when the kernel is compiled.
% ==
% error: divergent_barrier\.q:9:9: error: kernel `swap_halves`: `syncthreads` at line 9 is inside control flow that depends on the thread
function [] = __kernel__ swap_halves(y : vec, blkpos : int)
    s = shared(8)
    s[blkpos] = blkpos
    if blkpos < 4
        syncthreads
    end
    y[blkpos] = s[7 - blkpos]
end
parallel_do([[8], [8]], zeros(8), swap_halves)
