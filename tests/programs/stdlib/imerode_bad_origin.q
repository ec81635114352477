% immorphology.q checks that the origin is [row, column].
% ==
% error: imerode: the origin must be \[row, column\]
import "immorphology.q"
print imerode(ones(3, 3), ones(2, 2), [0])
