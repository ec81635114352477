% A frame is an ordinary array: it goes into a kernel (a 3x3 box filter) and into
% whole-array expressions like any other, and a gray mat written with vidwriteframe is
% stored in all three channels.
% ==
% requires { ffmpeg ffprobe }
% stdout {
% 8x8 1 1
% }
w = vidwrite("gpu_clip.avi", 30, "rawvideo")
vidwriteframe(w, repmat(0..7, [8, 1]) * 30)
vidclose(w)
v = vidopen("gpu_clip.avi")
vidreadframe(v)
x = float(v.rgb_data) / 255
y = zeros(size(x))
function [] = __kernel__ box(x : cube'clamped, y : cube'unchecked, pos : ivec3)
    s = 0.0
    for dr = -1..1
        for dc = -1..1
            s += x[pos + [dr, dc, 0]]
        end
    end
    y[pos] = s / 9
end
parallel_do(size(x), x, y, box)
ok = abs(y[4, 4, 1] - sum(x[3..5, 3..5, 1]) / 9) < 1e-6
print v.frame_width, "x", v.frame_height, " ", ok, " ", v.rgb_data[5, 3, 0] == v.rgb_data[5, 3, 2]
