% Updates indexed by reals converted in place (`h[int(x)] += 1`, a histogram's form):
% on the native tier the conversion is the processor's instruction with the exact
% conversion out of line (`codegen-c/cpp/index_cast.rs`), so every special value
% must land where the host's conversion puts it: NaN and -0.5 in bin 0, 7.9 in bin 7,
% and nothing for the infinities, +-1e10, +-2^31, -1, 8 and 255.9 (outside the bins:
% the update is skipped). A global array (a private copy per range of work items on
% the native tier), a shared one merged by blocks, 64-bit indices with `-=` (`int64`
% rounds halves away from zero: 0.99 and 3.7 move up a bin, -0.5 and 7.9 out), and
% an index converted from a product computed in the kernel.
% ==
% stdout {
% [4,0,0,1,0,0,0,2]
% [4,0,0,1,0,0,0,2]
% [-8,-4,0,0,-4,0,0,-4]
% [16,0,0,4,0,0,0,8]
% }
function [] = __kernel__ count(x : vec, h : vec, pos : int)
    h[int(x[pos])] += 1
endfunction

function [] = __kernel__ count_shared(x : vec, h : vec, pos : int, blkpos : int, blkdim : int)
    bins = shared(8)
    if blkpos < 8
        bins[blkpos] = 0.0
    endif
    syncthreads
    bins[int(x[pos])] += 1
    syncthreads
    if blkpos < 8
        h[blkpos] += bins[blkpos]
    endif
endfunction

function [] = __kernel__ uncount(x : vec, h : vec, pos : int)
    h[int64(x[pos])] -= 2
endfunction

function [] = __kernel__ count_double(x : vec, h : vec, pos : int)
    % The product is computed in the kernel: a real of the kernel's own.
    h[int(x[pos] * 1.0)] += 2
endfunction

x = [0/0, 1/0, -1/0, 1e10, -1e10, -2147483648, 2147483648, -0.5, _
     -1, 0, 0.99, 3.7, 7, 7.9, 8, 255.9]
h = zeros(8)
parallel_do(numel(x), x, h, count)
print h
h = zeros(8)
parallel_do([[numel(x)], [numel(x)]], x, h, count_shared)
print h
h = zeros(8)
parallel_do(numel(x), x, h, uncount)
parallel_do(numel(x), x, h, uncount)
print h
h = zeros(8)
parallel_do(numel(x), x, h, count_double)
parallel_do(numel(x), x, h, count_double)
print h
