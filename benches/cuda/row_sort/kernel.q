% bytes: 67108864
% bound: compute
% Sorts each row of an 8192x1024 matrix with a bitonic network in shared memory: one
% block of 512 threads per row, each thread owning one compare-exchange of every stage.

function [] = __kernel__ make_data(x : mat'unchecked, pos : ivec2)
    i = pos[0]
    j = pos[1]
    % at most 2.03e9 for i < 8192, j < 1024: no 32-bit overflow
    x[pos] = mod(i * i * 29 + j * j * 17 + i * j * 7 + i * 3 + j, 65536) / 65536
endfunction

function [] = __kernel__ bitonic_rows(x : mat'unchecked, y : mat'unchecked, _
                                      pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    n = size(x, 1)
    assert(n <= 4096)
    s = shared(n)
    t = blkpos[1]
    nt = blkdim[1]
    s[t] = x[pos[0], t]
    s[t + nt] = x[pos[0], t + nt]
    syncthreads
    k = 2
    while k <= n
        j = shr(k, 1)
        while j > 0
            % the pair (i, i + j) of this thread: insert a 0 bit at the place of j in t
            i = 2 * t - and(t, j - 1)
            a = s[i]
            b = s[i + j]
            if and(i, k) == 0
                s[i] = min(a, b)
                s[i + j] = max(a, b)
            else
                s[i] = max(a, b)
                s[i + j] = min(a, b)
            endif
            syncthreads
            j = shr(j, 1)
        endwhile
        k = shl(k, 1)
    endwhile
    y[pos[0], t] = s[t]
    y[pos[0], t + nt] = s[t + nt]
endfunction

reps = 30
[M, N] = [8192, 1024]
x = zeros(M, N)
parallel_do(size(x), x, make_data)
y = zeros(M, N)
half = 512

parallel_do([[M, half], [1, half]], x, y, bitonic_rows)
for r = 1..reps
    tic()
    parallel_do([[M, half], [1, half]], x, y, bitonic_rows)
    toc("rep")
endfor
% Weight each column by its index, so that the order within rows counts.
print "checksum: ", sum(y .* (0..N - 1))
