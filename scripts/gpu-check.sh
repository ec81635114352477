#!/usr/bin/env bash
# The check to run on the GPU machine (NVIDIA GPU, CUDA 13.0, no Rust, no network; see
# ../shared/DESIGN.md §5). It builds nothing: it runs a release `blazar` binary built
# elsewhere and carried along.
#
#   scripts/gpu-check.sh [BLAZAR]        (default BLAZAR: .device/blazar)
#
# 1. prints the GPU (nvidia-smi, where present);
# 2. runs the golden suite on CUDA: `$BLAZAR test --device cuda tests/programs`
#    (log: RESULTS/golden-cuda.log);
# 3. runs the GPU benchmarks: `$BLAZAR bench --device cuda --json RESULTS/bench-cuda.json`
#    (log: RESULTS/bench-cuda.log);
# 4. prints a short table last (also saved as RESULTS/summary.txt).
#
# RESULTS is $OUT when set, else .device/results. Exit status: 1 when a golden program
# failed (or the suite did not finish), 2 when BLAZAR cannot be run, else 0. Without a
# usable GPU, `blazar test` reports the whole suite as skipped (never as passed).
# Needs only bash and coreutils.
set -u

root="$(cd "$(dirname "$0")/.." && pwd)"

absolute() {
    case "$1" in
        /*) printf '%s\n' "$1" ;;
        *) printf '%s\n' "$PWD/$1" ;;
    esac
}

if [ "$#" -gt 1 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
    echo "usage: scripts/gpu-check.sh [BLAZAR]   (default: .device/blazar; results in \$OUT or .device/results)" >&2
    exit 2
fi
if [ "$#" -eq 1 ]; then
    blazar="$(absolute "$1")"
else
    blazar="$root/.device/blazar"
fi
if [ -n "${OUT:-}" ]; then
    results="$(absolute "$OUT")"
else
    results="$root/.device/results"
fi
if [ ! -x "$blazar" ]; then
    echo "gpu-check: error: no executable blazar at $blazar (build it with cargo build --release and copy it there, or pass its path)" >&2
    exit 2
fi
if ! mkdir -p "$results"; then
    echo "gpu-check: error: cannot create the results folder $results" >&2
    exit 2
fi
cd "$root" || exit 2

golden_log="$results/golden-cuda.log"
bench_log="$results/bench-cuda.log"
bench_json="$results/bench-cuda.json"
summary="$results/summary.txt"

echo "== GPU"
gpu="unknown (no nvidia-smi)"
if command -v nvidia-smi >/dev/null 2>&1; then
    gpu="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    gpu_rc=$?
    if [ "$gpu_rc" -ne 0 ] || [ -z "$gpu" ]; then
        gpu="nvidia-smi failed (status $gpu_rc): $gpu"
    fi
fi
echo "$gpu"
echo "blazar: $blazar ($("$blazar" --version 2>&1))"

echo
echo "== golden programs on CUDA (log: $golden_log)"
"$blazar" test --device cuda tests/programs 2>&1 | tee "$golden_log"
golden_rc=${PIPESTATUS[0]}

# The in-process GPU tests (crates/blazar-cuda/tests/gpu.rs), when their executable
# was carried along (scripts/build-device.sh puts it next to the binary).
gpu_tests_bin="${GPU_TESTS:-$(dirname "$blazar")/gpu-tests}"
gpu_tests="not run (no $gpu_tests_bin)"
gpu_tests_rc=0
if [ -x "$gpu_tests_bin" ]; then
    echo
    echo "== in-process GPU tests"
    gpu_tests_out="$("$gpu_tests_bin" 2>&1)"
    gpu_tests_rc=$?
    echo "$gpu_tests_out"
    gpu_tests="$(tail -n 1 <<<"$gpu_tests_out") [status $gpu_tests_rc]"
fi

echo
echo "== benchmarks on CUDA (log: $bench_log, json: $bench_json)"
"$blazar" bench --device cuda --json "$bench_json" 2>&1 | tee "$bench_log"
bench_rc=${PIPESTATUS[0]}

# The golden summary: the last `tests: N passed, M failed, K skipped` line.
golden="no summary line (the suite did not finish; status $golden_rc)"
golden_done=0
re_tests='^tests: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped'
while IFS= read -r line; do
    if [[ "$line" =~ $re_tests ]]; then
        golden="${BASH_REMATCH[1]} passed, ${BASH_REMATCH[2]} failed, ${BASH_REMATCH[3]} skipped"
        golden_done=1
    fi
done <"$golden_log"

# The bench summary: the last `median ratio ...` line among the last lines of its output.
bench="no median ratio line (see $bench_log)"
while IFS= read -r line; do
    case "$line" in
        "median ratio"*) bench="$line" ;;
    esac
done < <(tail -n 20 "$bench_log")
if [ "$bench_rc" -ne 0 ]; then
    bench="$bench [bench exit status $bench_rc]"
fi
if [ -s "$bench_json" ]; then
    bench_file="$bench_json"
else
    bench_file="(none written)"
fi

{
    echo
    echo "== gpu-check summary"
    printf '%-14s %s\n' "gpu" "$gpu"
    printf '%-14s %s\n' "golden (cuda)" "$golden"
    printf '%-14s %s\n' "gpu tests" "$gpu_tests"
    printf '%-14s %s\n' "bench (cuda)" "$bench"
    printf '%-14s %s\n' "results" "$golden_log, $bench_log, $bench_file"
} | tee "$summary"

if [ "$golden_done" -ne 1 ] || [ "$golden_rc" -ne 0 ] || [ "$gpu_tests_rc" -ne 0 ]; then
    exit 1
fi
exit 0
