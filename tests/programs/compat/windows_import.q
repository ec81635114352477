% An import by an absolute Windows path (code written on another machine) takes the file
% of that name beside the program, with a warning; a name only the bundled library has
% is found there.
% ==
% stdout {
% [0.25,0.5,1]
% 3
% }
import "D:\projects\tonemap\windows_import_lib.q"
import "C:/Quasar/Library/windows_import_lib.q"
print gamma_curve([1, 2, 4] / 4, 1)
print numel(gamma_curve([0, 1, 0.5], 2))
