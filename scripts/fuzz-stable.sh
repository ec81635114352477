#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ (parse, check, run) on the stable toolchain,
# without cargo-fuzz: the same coverage instrumentation, no sanitizer. The golden
# programs seed the corpora; findings go to fuzz/artifacts/<target>/.
#
#   scripts/fuzz-stable.sh [SECONDS per target, default 300] [TARGETS...]
set -eu
cd "$(dirname "$0")/../fuzz"
secs="${1:-300}"
shift || true
targets="${*:-parse check run}"
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
triple="$(rustc -vV | sed -n 's/^host: //p')"
cargo build --release --bins --target "$triple"
for t in $targets; do
    mkdir -p "corpus/$t" "artifacts/$t"
    find ../tests/programs -name '*.q' -exec cp {} "corpus/$t/" \;
    "./target/$triple/release/$t" "corpus/$t" -max_total_time="$secs" -max_len=4096 \
        -rss_limit_mb=3000 -timeout=20 -artifact_prefix="artifacts/$t/" -print_final_stats=1 \
        2>&1 | grep -E '^(Done|stat::|==|SUMMARY|artifact_prefix|Test unit written)' || true
done
