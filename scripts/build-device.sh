#!/usr/bin/env bash
# Builds what scripts/gpu-check.sh needs on the GPU machine (which has no Rust): the
# release `blazar` binary and the in-process GPU test executable, copied into .device/
# (listed in .git/info/exclude). Run from anywhere inside the repository.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mkdir -p .device
cargo build --release -p blazar-cli
cp target/release/blazar .device/blazar
test_bin="$(cargo test --release -p blazar-cuda --test gpu --no-run --message-format=json 2>/dev/null \
    | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)"
cp "$test_bin" .device/gpu-tests
echo "built .device/blazar and .device/gpu-tests"
