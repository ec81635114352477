% A histogram counted by blocks of threads that each walk a few image rows with a
% strided loop (`for c = t..nt..width-1`, the loop over the block's threads runs
% inside it): rows past the image's end and columns past its width read zero (bin 0),
% NaN converts to 0 and 255.9 to 255, widths shorter and longer than the block, and
% a second pass indexing one column past the last. Checked against a host count.
% ==
% stdout {
% 11111
% }

function [] = __kernel__ rows_hist(im : mat, h : vec'unchecked, rows : int, extra : int, _
                                   pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    bins = shared(256)
    t = blkpos[1]
    nt = blkdim[1]
    for b = t..nt..255
        bins[b] = 0.0
    endfor
    syncthreads
    for r = pos[0] * rows..pos[0] * rows + rows - 1
        for c = t..nt..size(im, 1) - 1 + extra
            bins[int(im[r, c])] += 1
        endfor
    endfor
    syncthreads
    for b = t..nt..255
        h[b] += bins[b]
    endfor
endfunction

function ok = check(m : int, n : int, rows : int, nt : int, extra : int)
    im = zeros(m, n)
    for i = 0..m-1
        for j = 0..n-1
            im[i, j] = mod(i * i * 7 + j * 13 + i * j, 256)
        end
    end
    im[0, 0] = 0 / 0
    im[m - 1, n - 1] = 255.9
    nb = int(ceil(m / rows))
    h = zeros(256)
    parallel_do([[nb, nt], [1, nt]], im, h, rows, extra, rows_hist)
    want = zeros(256)
    for i = 0..nb * rows - 1
        for j = 0..n - 1 + extra
            v = 0
            if i < m && j < n
                v = im[i, j]
            end
            want[int(v)] += 1
        end
    end
    ok = max(abs(h - want)) == 0
endfunction

print check(8, 300, 4, 64, 0), check(9, 50, 4, 64, 0), check(5, 700, 2, 128, 1), check(3, 17, 3, 32, 2), check(7, 256, 3, 256, 0)
