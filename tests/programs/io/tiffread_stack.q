% tiffread reads the pages of a multi-page TIFF as mats (values as stored: 16-bit pages
% give 0..65535), all of them, the first n, or the listed 0-based pages.
% The input was written byte by byte by scripts/tiff_stack_fixture.py: 3 pages of
% 2x3 16-bit gray, page k = 1000 k + [[0, 1, 2], [3, 4, 5]], page 2's last pixel 65535.
% ==
% stdout {
% 3 3 2
% [ [0,1,2],
%   [3,4,5] ]
% [ [2000,2001,2002],
%   [2003,2004,65535] ]
% 2 [1000,1001,1002]
% 2 [ [2000,2001,2002],
%   [2003,2004,65535] ] [0,1,2]
% }
t = tiffread("tiffread_stack_fixture.tif")
print t.count, " ", t.width, " ", t.height
print t.slices[0]
print t.slices[2]
first = tiffread("tiffread_stack_fixture.tif", 2)
print first.count, " ", first.slices[1][0, :]
picked = tiffread("tiffread_stack_fixture.tif", [2, 0])
print picked.count, " ", picked.slices[0], " ", picked.slices[1][0, :]
