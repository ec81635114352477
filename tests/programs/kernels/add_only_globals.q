% Global arrays that a kernel only adds into (`+=`, no other access), updated from many
% blocks and chunks with real contention: the native tier gives each range of work
% items a private copy and adds it in once (`codegen-c/cpp/private.rs`). The sums match
% a host count on every backend: a shared-memory histogram merged into a global one by
% 512 blocks, a naive histogram without blocks, the same array passed twice (reads of
% one half, updates of the other), an array too large for a private copy, and bins no
% thread touches keep their sign of zero.
% ==
% stdout {
% 1
% 1
% 1
% 1
% 1
% -Inf
% }
function [] = __kernel__ make_image(x : mat'unchecked, pos : ivec2)
    i = pos[0]
    j = pos[1]
    x[pos] = mod(i * i * 31 + j * j * 17 + i * j * 7 + i * 3 + j, 256)
endfunction

function [] = __kernel__ block_histogram(im : mat'unchecked, h : vec'unchecked, rows : int, _
                                         pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    bins = shared(256)
    t = blkpos[1]
    nt = blkdim[1]
    for b = t..nt..255
        bins[b] = 0.0
    endfor
    syncthreads
    for r = pos[0] * rows..pos[0] * rows + rows - 1
        for c = t..nt..size(im, 1) - 1
            bins[int(im[r, c])] += 1
        endfor
    endfor
    syncthreads
    for b = t..nt..255
        h[b] += bins[b]
    endfor
endfunction

function [] = __kernel__ naive_histogram(im : mat'unchecked, h : vec, pos : ivec2)
    h[int(im[pos])] += 1
endfunction

% `g` and `h` may be one array: the kernel reads g[256..511] and adds into h[0..255].
function [] = __kernel__ shifted_add(g : vec, h : vec, pos : int)
    h[mod(pos, 256)] += g[256 + mod(pos * 7, 256)]
endfunction

function [] = __kernel__ wide_add(h : vec, pos : int)
    h[mod(pos * 13, numel(h))] += 1
endfunction

[M, N] = [256, 512]
im = zeros(M, N)
parallel_do(size(im), im, make_image)
expected = zeros(256)
for i = 0..M - 1
    for j = 0..N - 1
        expected[im[i, j]] = expected[im[i, j]] + 1
    endfor
endfor

h = zeros(256)
parallel_do([[M / 2, 64], [1, 64]], im, h, 2, block_histogram)
print sum(abs(h - expected)) == 0

h = zeros(256)
parallel_do(size(im), im, h, naive_histogram)
print sum(abs(h - expected)) == 0

g = zeros(512)
for i = 0..511
    g[i] = mod(i, 5)
endfor
want = zeros(512)
for i = 0..511
    want[i] = g[i]
endfor
for p = 0..4095
    want[mod(p, 256)] = want[mod(p, 256)] + g[256 + mod(p * 7, 256)]
endfor
parallel_do(4096, g, g, shifted_add)
print sum(abs(g - want)) == 0

big = zeros(70000)
parallel_do(140000, big, wide_add)
print sum(big) == 140000 && max(big) == 2

% Bins that start at -0 and that no thread updates stay -0.
h = zeros(8) * -1
parallel_do(16, h, __kernel__ (h : vec, pos : int) -> h[mod(pos, 4)] += 1)
print sum(h[0..3]) == 16
print 1 / h[7]
