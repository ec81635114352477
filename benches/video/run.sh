#!/bin/sh
# The 1080p video benchmark: makes a 10 s 1080p30 test clip with FFmpeg (testsrc2,
# H.264), then runs filter.q on it (decode, gamma and 3x3 blur on the device, H.264
# encode) and prints frames per second.
#
#   benches/video/run.sh [BLAZAR] [DEVICE]     (defaults: target/release/blazar, cuda)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
blazar=${1:-target/release/blazar}
device=${2:-cuda}
if [ ! -f "$here/clip_1080p.mp4" ]; then
    ffmpeg -v error -y -f lavfi -i testsrc2=size=1920x1080:rate=30 -t 10 \
        -c:v libx264 -pix_fmt yuv420p -preset fast "$here/clip_1080p.mp4"
fi
"$blazar" run --device "$device" "$here/filter.q"
rm -f "$here/filtered_1080p.mp4"
