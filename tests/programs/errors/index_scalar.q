% Indexing a scalar with a non-zero index is an error.
% ==
% error: index_scalar\.q:5:5: error: index 3 is out of bounds
s = 5
t = s[3]
