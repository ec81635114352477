% A block-wise sum kernel whose data parameter is `x : vec`, given a cube: the cube is
% read in linear order. Launched as one block over a `[1, B]` size (B from
% `max_block_size`), with an output.
% ==
% stdout {
% 1225
% 1225
% }
function y : scalar = __kernel__ block_sum(x : vec, rounds : int, blkdim : int, blkpos : int)
  part = shared(blkdim)
  acc = 0.0
  for r = 0..rounds - 1
    i = blkpos + r * blkdim
    if i < numel(x)
      acc += x[i]
    end
  end
  part[blkpos] = acc
  syncthreads
  step = int(blkdim / 2)
  while step > 0
    if blkpos < step
      part[blkpos] += part[blkpos + step]
    end
    syncthreads
    step = int(step / 2)
  end
  if blkpos == 0
    y += part[0]
  end
end
function s = total(x : cube)
  B = prevpow2(prod(max_block_size(block_sum, numel(x))))
  rounds = int((numel(x) + B - 1) / B)
  s = parallel_do([[1, B], [1, B]], x, rounds, block_sum)
end
c = reshape(0..49, [5, 5, 2]) + 0.0
print total(c)
print sum(c)
