% hdr_imshow(x, [lo, hi]) shows a frame on the HDR display: Blazar writes the newest
% frame as an OpenEXR file when the program ends and lists it; the handle names the
% file and the frame's size.
% ==
% stdout {
% hdr_imshow_hdr.exr 3x2
% hdr display: wrote hdr_imshow_hdr.exr
% }
for k = 1..3
    h = hdr_imshow(ones(2, 3, 3) * 1000 * k, [0, 6000])
end
print h.file, " ", h.width, "x", h.height
