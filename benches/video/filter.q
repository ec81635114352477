% The video benchmark: decode a clip, filter each frame on the device (gamma and a 3x3
% box blur as whole-array code over the frame as floats), encode the result, and print
% frames per second of the whole loop (decode + filter + encode). Headless: no display.
%
%   blazar run --device cuda benches/video/filter.q   (run.sh makes the clip first)
input = "clip_1080p.mp4"
output = "filtered_1080p.mp4"
v = vidopen(input)
w = vidwrite(output, v.avg_frame_rate)
print "input: ", v.frame_width, "x", v.frame_height, ", ", v.frame_count, " frames at ", v.avg_frame_rate, " fps"
function y = blur_gamma(x : cube)
    g = (x / 255) .^ 0.8
    [m, n, c] = size(g)
    r0 = [0, 0..m-2]
    r1 = [1..m-1, m-1]
    c0 = [0, 0..n-2]
    c1 = [1..n-1, n-1]
    s = g + g[r0, :, :] + g[r1, :, :]
    s = s + s[:, c0, :] + s[:, c1, :]
    y = s * (255 / 9)
end
frames = 0
tic()
while vidreadframe(v)
    y = blur_gamma(float(v.rgb_data))
    vidwriteframe(w, y)
    frames = frames + 1
end
vidclose(w)
t = toc()
printf("%d frames in %.2f s: %.1f frames per second (decode, filter, encode)\n", frames, t, frames / t)
