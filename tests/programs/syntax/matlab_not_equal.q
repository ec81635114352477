% MATLAB's not-equal `~=` (found in published Quasar programs) reads as `!=`, with a
% warning; a lone `~` is still an error.
% ==
% stdout {
% 1 0
% [1,0,1]
% }
a = 3
print a ~= 2, " ", a ~= 3
print [1, 2, 3] ~= 2
