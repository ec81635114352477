% asking sort for three outputs is a located error.
% ==
% error: linalg_sort_outputs\.q:4:13: error: `sort` gives at most 2 outputs, 3 asked for
[s, i, j] = sort([3, 1, 2])
