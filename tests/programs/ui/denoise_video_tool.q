% A published-style interactive tool: a video source, a strength slider, before and after
% displays, run headless (`--ui none`: the slider keeps its initial value, each display is
% a figure). The clip is written by the program itself; the blur lowers the roughness.
% ==
% requires { ffmpeg ffprobe }
% options { --ui none }
% stdout {
% frame 0: roughness 23.41 -> 9.43
% frame 1: roughness 23.33 -> 9.37
% frame 2: roughness 23.49 -> 9.41
% frame 3: roughness 23.41 -> 9.43
% 4 frames
% figure 1: wrote denoise_video_tool_figure1.png
% figure 2: wrote denoise_video_tool_figure2.png
% }
import "Quasar.UI.dll"
import "Quasar.Video.dll"

% A noisy test clip, written by the program itself: a ramp plus a fixed noise pattern.
function frame = make(k)
    frame = zeros(16, 24, 3)
    for r = 0..15
        for c = 0..23
            noise = mod(r * 7 + c * 13 + k * 5, 11) * 6 - 30
            for ch = 0..2
                frame[r, c, ch] = 60 + 6 * c + 20 * ch + noise
            end
        end
    end
end

w = vidwrite("denoise_tool_in.avi", 25, "rawvideo")
for k = 0..3
    vidwriteframe(w, make(k))
end
vidclose(w)

% The tool: a strength slider, before and after displays.
frm = form("Video denoiser")
frm.add_heading("Parameters")
strength = frm.add_slider("strength", 0.75, 0, 1)
before = frm.add_display()
after = frm.add_display()

% A 3x3 box blur (shifted copies, circular borders) mixed with the frame.
function y = denoise(x, s)
    b = zeros(size(x))
    for dr = -1..1
        for dc = -1..1
            b = b + circshift(x, [dr, dc, 0])
        end
    end
    y = (1 - s) * x + s * b / 9
end

% Roughness: the mean absolute difference between horizontal neighbours.
function r = roughness(x)
    r = mean(abs(x[:, 1..23, :] - x[:, 0..22, :]))
end

v = vidopen("denoise_tool_in.avi")
n = 0
while vidreadframe(v)
    x = float(v.rgb_data)
    y = denoise(x, strength.value)
    before.imshow(x / 255)
    after.imshow(y / 255)
    print sprintf("frame %d: roughness %.2f -> %.2f", n, roughness(x), roughness(y))
    n = n + 1
end
vidclose(v)
frm.wait()
print n, " frames"
