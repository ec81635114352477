% `reshape` with an empty dims literal is a located error (there is no `-1` or `[]`
% placeholder dim); nothing is assigned.
% ==
% error: reshape_empty_dims\.q:6:5: error: reshape: empty dimension vector
x = ones(2, 6)
r = reshape(x, [])
