% imgaussfilt: the filter size must be odd.
% ==
% error: imgaussfilt_even_error\.q:4:7: error: imgaussfilt: the filter size must be odd, got 4
print imgaussfilt(ones(3, 3), 1, 4)
