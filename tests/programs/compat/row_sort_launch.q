% A bitonic sort of each row in shared memory, launched as published sorting code does:
% sizes of three entries with a trailing 1 (`max_block_size(k, [rows, n, 1])` and
% `[[rows, b, 1], block]`) for a kernel whose positions are `ivec2`; rows shorter than
% a power of two are padded.
% ==
% stdout {
% [ [1,2,3,5,8,9],
%   [-4,0,0,2,6,7],
%   [10,11,12,13,14,15] ]
% }
function [] = row_sort(x : mat)
  function [] = __kernel__ sorter(x : mat, len : int, blkdim : ivec2, blkpos : ivec2, pos : ivec2)
    buf = shared(blkdim[0], len)
    r = blkpos[0]
    for c = blkpos[1]..blkdim[1]..len - 1
      buf[r, c] = c < size(x, 1) ? x[pos[0], c] : 1e30
    end
    syncthreads
    size_ = 2
    while size_ <= len
      stride = int(size_ / 2)
      while stride > 0
        for c = blkpos[1]..blkdim[1]..len - 1
          partner = xor(c, stride)
          if partner > c
            up = and(c, size_) == 0
            a = buf[r, c]
            b = buf[r, partner]
            if (a > b) == up
              buf[r, c] = b
              buf[r, partner] = a
            end
          end
        end
        syncthreads
        stride = int(stride / 2)
      end
      size_ = size_ * 2
    end
    for c = blkpos[1]..blkdim[1]..len - 1
      if c < size(x, 1)
        x[pos[0], c] = buf[r, c]
      end
    end
  end
  len = int(2 ^ ceil(log2(size(x, 1))))
  block = max_block_size(sorter, [size(x, 0), min(len, 256), 1])
  parallel_do([[size(x, 0), block[1], 1], block], x, len, sorter)
end
A = [[5, 3, 9, 1, 8, 2], [0, 7, -4, 6, 2, 0], [15, 14, 13, 12, 11, 10]]
row_sort(A)
print A
