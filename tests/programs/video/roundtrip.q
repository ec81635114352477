% Frames written with vidwrite/vidwriteframe (lossless ffv1 in .mkv, raw RGB in .avi)
% read back with vidopen/vidreadframe: the size, frame count and rate from ffprobe, the
% pixels unchanged, rgb_data a cube[uint8] (8-bit video), and 0 after the last frame.
% ==
% requires { ffmpeg ffprobe }
% stdout {
% roundtrip_ffv1.mkv: 16x12 6 frames at 25 fps, 8 bits
% [12,16,3] uint8 1 1 6 0 0
% roundtrip_raw.avi: 16x12 6 frames at 25 fps, 8 bits
% [12,16,3] uint8 1 1 6 0 0
% }
function frame = make(k)
    frame = zeros(12, 16, 3)
    for r = 0..11
        for c = 0..15
            frame[r, c, 0] = mod(r * 16 + c + 37 * k, 256)
            frame[r, c, 1] = 255 - 40 * k
            frame[r, c, 2] = mod(c * 13 + k, 256)
        end
    end
end

function [] = check(file, codec)
    w = vidwrite(file, 25, codec)
    for k = 0..5
        vidwriteframe(w, make(k))
    end
    vidclose(w)
    v = vidopen(file)
    print file, ": ", v.frame_width, "x", v.frame_height, " ", v.frame_count, " frames at ", v.avg_frame_rate, " fps, ", v.bits_per_color, " bits"
    same = true
    times = true
    n = 0
    while vidreadframe(v)
        same = same && max(abs(float(v.rgb_data) - make(n))) == 0
        times = times && abs(v.pts - n / 25) < 1e-6
        n = n + 1
    end
    print size(v.rgb_data), " ", type(v.rgb_data[0, 0, 0]), " ", same, " ", times, " ", n, " ", vidreadframe(v), " ", vidreadframe(v)
end

check("roundtrip_ffv1.mkv", "ffv1")
check("roundtrip_raw.avi", "rawvideo")
