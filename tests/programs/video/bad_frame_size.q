% Every frame of a video has the size of its first: another size is a located error
% naming both shapes.
% ==
% requires { ffmpeg }
% error: bad_frame_size\.q:8:1: error: vidwriteframe: the frame is 4x6x3 but the video 'bad_size\.avi' is 4x4x3
w = vidwrite("bad_size.avi", 25, "rawvideo")
vidwriteframe(w, zeros(4, 4, 3))
vidwriteframe(w, zeros(4, 6, 3))
