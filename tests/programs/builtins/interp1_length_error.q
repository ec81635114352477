% interp1: sample points and values of different lengths are a located error naming both.
% ==
% error: interp1_length_error\.q:4:7: error: interp1: the sample points and the values differ in length \(3 and 2\)
print interp1([0, 1, 2], [5, 6], 0.5)
