#!/usr/bin/env bash
# Whole-array statements on the GPU machine (no Rust there; carry a release binary in
# .device/): the golden suite with every array expression fused (--fuse-min 0), the
# array-operations benchmark against CuPy, and the compile latency of 20 new kernels,
# cold and warm. Logs in $OUT (or .device/results); a short table last.
#
#   scripts/gpu-arrays.sh [BLAZAR]      (default .device/blazar)
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 2
blazar="${1:-.device/blazar}"
out="${OUT:-.device/results}"
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
BLAZAR_FUSE_MIN=0 "$blazar" test --device cuda tests/programs > "$out/golden-fused.log" 2>&1
grep -E '^FAIL' "$out/golden-fused.log" | head -20
echo "golden, every array expression fused: $(tail -1 "$out/golden-fused.log")"
"$blazar" bench --suite arrays --device cuda --json "$out/arrays-cuda.json" > "$out/bench-arrays.log" 2>&1
export XDG_CACHE_HOME="$out/cold-cache"
rm -rf "$XDG_CACHE_HOME"
for run in cold warm; do
    start=$(date +%s%N)
    "$blazar" run benches/arrays/compile_latency.q --device cuda --devices 0 > /dev/null 2>&1
    end=$(date +%s%N)
    echo "compile latency ($run, 20 statements, cuda): $(( (end - start) / 1000000 )) ms"
done
tail -22 "$out/bench-arrays.log"
