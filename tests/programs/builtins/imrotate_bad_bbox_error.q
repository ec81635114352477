% imrotate names the bounding boxes it knows when given another.
% ==
% error: imrotate_bad_bbox_error\.q:4:7: error: imrotate: unknown bounding box "tight" \(expected "loose" or "crop"\)
print imrotate(ones(3, 3), 45, "nearest", "tight")
