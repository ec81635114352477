% Joining arrays whose shapes do not agree is a located error naming both shapes,
% raised before anything is assigned, also where the parts are fused kernels.
% ==
% options { --fuse-min 0 }
% stdout {
% [2,3,4]
% }
% error: join_shape_mismatch\.q:11:5: error: horzcat: dimensions do not agree: 3x4 and 2x4 \(joining along dimension 1\)
x = ones(3, 4)
print size([x, 2 * x])
y = horzcat(x + 1, ones(2, 4))
