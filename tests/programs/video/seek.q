% vidseek(v, t) restarts decoding at t seconds: the next frame read is the one shown
% at t, pts follows, and reading goes on to the end; seeking back to 0 reads the first
% frame again. A frame kept in a variable is not overwritten by the next read.
% ==
% requires { ffmpeg ffprobe }
% stdout {
% 50 0.5
% 60 70 80 90 end
% 0 0
% kept 0, now 10
% }
w = vidwrite("seek_clip.avi", 10, "rawvideo")
for k = 0..9
    vidwriteframe(w, ones(4, 6, 3) * 10 * k)
end
vidclose(w)
v = vidopen("seek_clip.avi")
vidseek(v, 0.5)
vidreadframe(v)
print v.rgb_data[2, 3, 1], " ", v.pts
line = ""
while vidreadframe(v)
    line = sprintf("%s%d ", line, v.rgb_data[0, 0, 0])
end
print line, "end"
vidseek(v, 0)
vidreadframe(v)
print v.rgb_data[3, 5, 2], " ", v.pts
kept = v.rgb_data
vidreadframe(v)
print "kept ", kept[0, 0, 0], ", now ", v.rgb_data[0, 0, 0]
