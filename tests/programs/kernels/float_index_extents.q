% Updates indexed by reals converted in place, checked against each dimension's own
% extent: on the native tier the truncating conversion's value is accepted when it lies
% in `0..extent` and every other value takes the exact conversion out of line
% (`codegen-c/cpp/index_cast.rs`), so values just inside and just outside each extent,
% NaN, -0.5 and the infinities must land as the host's conversion puts them. A matrix
% updated with two real indices (extents 3 and 5), the same matrix with one linear
% real index (extent 15, the product), an empty histogram (extent 0: nothing lands), a
% shared one of 5 bins, and 64-bit indices.
% ==
% stdout {
% [ [1,0,0,0,2],
%   [1,0,0,0,0],
%   [1,0,0,0,2] ]
% [ [2,0,1,0,0],
%   [0,1,0,0,0],
%   [1,0,1,0,1] ]
% 0 0
% [4,1,0,0,2]
% [2,2,0,0,1]
% }
function [] = __kernel__ count2(x : vec, y : vec, m : mat, pos : int)
    m[int(x[pos]), int(y[pos])] += 1
endfunction

function [] = __kernel__ count_linear(x : vec, m : mat, pos : int)
    m[int(x[pos] * 5.0)] += 1
endfunction

function [] = __kernel__ count1(x : vec, h : vec, pos : int)
    h[int(x[pos])] += 1
endfunction

function [] = __kernel__ count_shared(x : vec, h : vec, pos : int, blkpos : int, blkdim : int)
    bins = shared(5)
    if blkpos < 5
        bins[blkpos] = 0.0
    endif
    syncthreads
    bins[int(x[pos])] += 1
    syncthreads
    if blkpos < 5
        h[blkpos] += bins[blkpos]
    endif
endfunction

function [] = __kernel__ count64(x : vec, h : vec, pos : int)
    h[int64(x[pos])] += 1
endfunction

x = [0/0, -0.5, 0.5, 2.99, 3, -1, 1/0, -1/0, 1.2, 2, 2.5, 0]
y = [0, 4.99, 5, -0.99, 0/0, 4, 2, 1, 0.7, 4.2, 4, 4]
m = zeros(3, 5)
parallel_do(numel(x), x, y, m, count2)
print m
m = zeros(3, 5)
parallel_do(numel(x), x, m, count_linear)
print m
h = zeros(0)
parallel_do(numel(x), x, h, count1)
print numel(h), " ", sum(h)
z = [0/0, -0.5, 0.5, 4.99, 5, -1, 1/0, -1/0, 1.2, 4, 5.5, 0, 2147483648, -2147483649]
h = zeros(5)
parallel_do([[numel(z)], [numel(z)]], z, h, count_shared)
print h
h = zeros(5)
parallel_do(numel(z), z, h, count64)
print h
