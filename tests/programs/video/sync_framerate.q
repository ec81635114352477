% sync_framerate(fps) makes each vidreadframe wait for its frame's time: after the
% first frame, 5 more at 10 fps take at least 0.5 s (toc gives milliseconds; 450 allows
% for the clock's rounding); sync_framerate(0) stops waiting (not timed:
% tests assert no speed).
% ==
% requires { ffmpeg ffprobe }
% stdout {
% 6 frames, paced: 1
% unpaced: 6
% }
w = vidwrite("sync_clip.avi", 10, "rawvideo")
for k = 0..5
    vidwriteframe(w, zeros(2, 2, 3))
end
vidclose(w)
v = vidopen("sync_clip.avi")
sync_framerate(v.avg_frame_rate)
n = vidreadframe(v)
tic()
while vidreadframe(v)
    n = n + 1
end
t = toc()
print n, " frames, paced: ", t >= 450
sync_framerate(0)
vidseek(v, 0)
vidreadframe(v)
m = 1
while vidreadframe(v)
    m = m + 1
end
print "unpaced: ", m
