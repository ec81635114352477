% The hint for MATLAB's `end` in an index names the variable being indexed.
% ==
% error: end_index_names_variable\.q:5:9: error: `end` is not an index in Quasar: the last element of `v` is `v\[numel\(v\)-1\]` \(`v\[size\(v, d\)-1\]` along dimension d\)
v = [1, 2, 3]
print v[end]
