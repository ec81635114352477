% Reshaping to another number of elements is a located error naming both sizes,
% also where the operand is a fused kernel; nothing is assigned.
% ==
% options { --fuse-min 0 }
% error: reshape_count\.q:8:5: error: reshape: cannot reshape 3x4 \(12 elements\) to 5x2 \(10 elements\)
x = ones(3, 4)
y = x
y = reshape(x * 2, [5, 2])
