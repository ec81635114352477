#!/usr/bin/env bash
# Host loops run as kernels, on the GPU machine (no Rust there; carry a release binary
# in .device/): the golden suite on CUDA at the default thresholds and with every loop
# and array expression as a kernel (BLAZAR_FUSE_MIN=0), then the loop benchmarks against
# the hand-written kernels. Logs in $OUT (or .device/results); a short table last.
#
#   scripts/gpu-loops.sh [BLAZAR]      (default .device/blazar)
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 2
blazar="${1:-.device/blazar}"
out="${OUT:-.device/results}"
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
"$blazar" test --device cuda tests/programs > "$out/golden.log" 2>&1
grep -E '^FAIL' "$out/golden.log" | head -20
echo "golden on cuda: $(tail -1 "$out/golden.log")"
BLAZAR_FUSE_MIN=0 "$blazar" test --device cuda tests/programs > "$out/golden-kernels.log" 2>&1
grep -E '^FAIL' "$out/golden-kernels.log" | head -20
echo "golden on cuda, every loop and array expression a kernel: $(tail -1 "$out/golden-kernels.log")"
for i in 1 2 3; do
    "$blazar" bench --suite loops --device cuda --json "$out/loops-cuda-$i.json" > "$out/bench-loops-$i.log" 2>&1
    tail -6 "$out/bench-loops-$i.log"
done
