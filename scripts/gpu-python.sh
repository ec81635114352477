#!/usr/bin/env bash
# Blazar from Python on the GPU machine (no Rust, no network): the DLPack gamma benchmark
# before and after a change, the launch + scalar read-back latency, and the pytest suite
# with its GPU cases. Builds nothing: it installs wheels built elsewhere (with
# `maturin build --release` in crates/blazar-py) into private folders, without their
# dependencies (NumPy, CuPy and, for its cases, PyTorch must be installed already).
#
#   AFTER_WHEEL=new.whl [BEFORE_WHEEL=old.whl] [BEFORE_BLAZAR=old-blazar] \
#       scripts/gpu-python.sh [BLAZAR]
#
# BLAZAR (default .device/blazar) is the release binary of the same commit as
# AFTER_WHEEL (scripts/build-device.sh), for scripts/gpu-latency.sh; BEFORE_BLAZAR, where
# given, is timed the same way. PYTHON (default python3) runs the benchmark and pytest.
# Logs go to $OUT (else .device/results); a short table is printed last (also saved as
# python-summary.txt there). Exit status: 1 when pytest failed or a result was wrong.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
py="${PYTHON:-python3}"
blazar="${1:-$root/.device/blazar}"
results="${OUT:-$root/.device/results}"
mkdir -p "$results"
tmp="$(mktemp -d)"
status=0

# A wheel installed into its own folder, put first on PYTHONPATH by the caller.
install() {
    "$py" -m pip install --quiet --no-deps --no-index --target "$tmp/$1" "$2" \
        > "$results/pip-$1.log" 2>&1
}

gamma() {
    # The benchmark's lines: CuPy, blazar.elementwise, blazar.kernel (ms and ratio).
    PYTHONPATH="$tmp/$1" "$py" benches/python/gamma_dlpack.py --repeat 50 \
        > "$results/gamma-$1.txt" 2>&1 || status=1
    cat "$results/gamma-$1.txt"
}

latency() {
    scripts/gpu-latency.sh "$2" > "$results/latency-$1.txt" 2>&1
    cat "$results/latency-$1.txt"
}

if [ -z "${AFTER_WHEEL:-}" ]; then
    echo "gpu-python: set AFTER_WHEEL to the wheel to test (maturin build --release)" >&2
    exit 2
fi
install after "$AFTER_WHEEL" || { echo "gpu-python: cannot install $AFTER_WHEEL" >&2; exit 2; }
if [ -n "${BEFORE_WHEEL:-}" ]; then
    install before "$BEFORE_WHEEL" || echo "gpu-python: cannot install $BEFORE_WHEEL"
fi

echo "== gamma through DLPack (benches/python/gamma_dlpack.py)"
[ -d "$tmp/before" ] && { echo "-- before"; gamma before; }
echo "-- after"
gamma after

echo "== launch + scalar read-back (scripts/gpu-latency.sh)"
[ -n "${BEFORE_BLAZAR:-}" ] && { echo "-- before"; latency before "$BEFORE_BLAZAR"; }
echo "-- after"
latency after "$blazar"

echo "== pytest (crates/blazar-py/tests, GPU cases included)"
PYTHONPATH="$tmp/after" "$py" -m pytest -q -rs -p no:cacheprovider crates/blazar-py/tests \
    > "$results/pytest.txt" 2>&1 || status=1
tail -n 25 "$results/pytest.txt"

row() { grep -m1 -E "$2" "$results/$1" 2>/dev/null | sed 's/  */ /g' || true; }
{
    echo
    echo "== gpu-python summary"
    for w in before after; do
        [ -f "$results/gamma-$w.txt" ] || continue
        echo "gamma $w: $(row "gamma-$w.txt" '^cupy') | $(row "gamma-$w.txt" '^blazar.elementwise') | $(row "gamma-$w.txt" '^blazar.kernel') | $(row "gamma-$w.txt" '^pool')"
    done
    for w in before after; do
        [ -f "$results/latency-$w.txt" ] || continue
        echo "latency $w: $(row "latency-$w.txt" 'us per iteration') | $(row "latency-$w.txt" 'launches=')"
    done
    echo "pytest: $(tail -n 1 "$results/pytest.txt")"
} | tee "$results/python-summary.txt"
rm -rf "$tmp"
exit "$status"
