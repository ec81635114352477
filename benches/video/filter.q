% The video benchmark: decode a clip, filter each frame on the device (gamma as
% whole-array code, then a 3x3 box blur kernel, over the frame as floats), encode the
% result, and print frames per second of the whole loop (decode + filter + encode).
% Headless: no display.
%
%   blazar run --device cuda benches/video/filter.q   (run.sh makes the clip first)
input = "clip_1080p.mp4"
output = "filtered_1080p.mp4"
v = vidopen(input)
w = vidwrite(output, v.avg_frame_rate)
print "input: ", v.frame_width, "x", v.frame_height, ", ", v.frame_count, " frames at ", v.avg_frame_rate, " fps"
function [] = __kernel__ box3(g : cube'clamped, y : cube'unchecked, pos : ivec3)
    s = 0.0
    for dr = -1..1
        for dc = -1..1
            s += g[pos + [dr, dc, 0]]
        end
    end
    y[pos] = s * (255 / 9)
end
function y = blur_gamma(x : cube)
    g = (x / 255) .^ 0.8
    y = uninit(size(g))
    parallel_do(size(g), g, y, box3)
end
frames = 0
tic()
while vidreadframe(v)
    y = blur_gamma(float(v.rgb_data))
    vidwriteframe(w, y)
    frames = frames + 1
end
vidclose(w)
t = toc() / 1000
printf("%d frames in %.2f s: %.1f frames per second (decode, filter, encode)\n", frames, t, frames / t)
