#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ (parse, check, run) on the stable toolchain,
# without cargo-fuzz: the same coverage instrumentation, no sanitizer. The golden
# programs seed the corpora; findings go to fuzz/artifacts/<target>/. The target
# `kernel` is the differential kernel fuzzer (crates/blazar-cli/tests/kernel_fuzz.rs:
# random kernels on every CPU tier, with fusion off and everywhere, against host
# versions of the same code; NVRTC too where libnvrtc is on LD_LIBRARY_PATH), run for
# the same time from a seed taken from the clock; BLAZAR_FUZZ_MIXED=0 leaves out
# arithmetic mixing int kinds. It is not among the defaults.
#
#   scripts/fuzz-stable.sh [SECONDS per target, default 300] [TARGETS...]
set -eu
cd "$(dirname "$0")/../fuzz"
secs="${1:-300}"
shift || true
targets="${*:-parse check run}"
case " $targets " in
*" kernel "*)
    (cd .. && BLAZAR_FUZZ_SECS="$secs" BLAZAR_FUZZ_SEED="${BLAZAR_FUZZ_SEED:-time}" \
        cargo test --release -p blazar-cli --test kernel_fuzz -- --nocapture 2>&1 |
        grep -E '^(kernel fuzz|--- kernel fuzz|test result)' || true)
    targets="$(echo " $targets " | sed 's/ kernel / /')"
    ;;
esac
[ -n "${targets// /}" ] || exit 0
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
