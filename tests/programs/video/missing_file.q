% Opening a video that does not exist is a located error naming the file.
% ==
% error: missing_file\.q:5:5: error: vidopen: cannot open 'no_such_clip\.avi': no such file
import "Quasar.Video.dll"
v = vidopen("no_such_clip.avi")
print v.frame_width
