% sync_framerate(fps) makes each vidreadframe wait for its frame's time: 6 frames at
% 20 fps take at least 5/20 s; sync_framerate(0) stops waiting.
% ==
% requires { ffmpeg ffprobe }
% stdout {
% 6 frames, paced: 1
% }
w = vidwrite("sync_clip.avi", 20, "rawvideo")
for k = 0..5
    vidwriteframe(w, zeros(2, 2, 3))
end
vidclose(w)
v = vidopen("sync_clip.avi")
sync_framerate(v.avg_frame_rate)
tic()
n = 0
while vidreadframe(v)
    n = n + 1
end
t = toc()
sync_framerate(0)
print n, " frames, paced: ", t >= 0.24
