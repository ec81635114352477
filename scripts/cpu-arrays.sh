#!/usr/bin/env bash
# The array-operations suite on the CPU of whatever machine runs it (the GPU machine's
# CPU is quieter than the development VM): NumPy in the same run, at 2 threads and at
# every core. OpenBLAS tuning variables are unset for NumPy's sake.
#
#   scripts/cpu-arrays.sh [BLAZAR]      (default .device/blazar)
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 2
blazar="${1:-.device/blazar}"
out="${OUT:-.device/results}"
mkdir -p "$out"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
for t in 2 "$(nproc)"; do
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$blazar" bench --suite arrays --device cpu \
        --threads "$t" --json "$out/arrays-cpu-$t.json" > "$out/bench-arrays-cpu-$t.log" 2>&1
    echo "--- $t threads"
    tail -22 "$out/bench-arrays-cpu-$t.log"
done
