#!/usr/bin/env bash
# What forms add to a processing loop that refreshes a display every frame
# (benches/ui/refresh.q): the timed loop's milliseconds in four cases, each repeated,
# the repeats of the cases interleaved (so a change of the machine's load falls on
# every case alike):
#   none      --ui none: headless, no server
#   server    --ui browser with no page attached
#   client    --ui browser with page_client.py (a headless page: receives, converts to
#             RGBA and acknowledges each picture; needs python3, no browser)
#   chromium  --ui browser with headless Chromium showing the page (skipped without it)
# Usage: benches/ui/run.sh [REPEATS] [CASE...]        (default: 5, all four cases)
# Environment:
#   BLAZAR        the binary (default target/release/blazar, else target/debug/blazar)
#   PROGRAM_CPUS  taskset CPU list for the program, e.g. 0     (default: unpinned)
#   PAGE_CPUS     taskset CPU list for the page, e.g. 1        (default: unpinned)
#   WARMUP_MS     untimed frames before the timed loop, time for the page to connect
#                 (default 3000; Chromium on a busy machine may need more)
#   FRAMES        timed frames (default 200)
#   CLIENT_DELAY  page_client.py's milliseconds per picture before it acknowledges
#                 (default 16: a page painting at 60 frames a second)
# Prints, per case: the median, the fastest and slowest run, every run, and the
# median's difference from the headless median; for `client`, the pictures per second
# the page got.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
blazar=${BLAZAR:-$root/target/release/blazar}
[ -x "$blazar" ] || blazar=$root/target/debug/blazar
reps=${1:-5}
shift $(($# > 0 ? 1 : 0))
cases=${*:-none server client chromium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Command prefixes that pin to the CPUs asked for (taskset execs the command, so `$!`
# is the process itself and gets the signals).
prog_pin=()
page_pin=()
[ -n "${PROGRAM_CPUS:-}" ] && prog_pin=(taskset -c "$PROGRAM_CPUS")
[ -n "${PAGE_CPUS:-}" ] && page_pin=(taskset -c "$PAGE_CPUS")

sed -e "s/^warmup = .*/warmup = ${WARMUP_MS:-3000}/" -e "s/^frames = .*/frames = ${FRAMES:-200}/" \
    "$here/refresh.q" >"$tmp/refresh.q"

# One run of CASE; prints the loop's milliseconds. With a page, the program serves it
# after the loop until stopped, so it is stopped (SIGINT) once it printed its time.
one() {
    local case=$1 out=$tmp/out err=$tmp/err mode=browser page=""
    [ "$case" = none ] && mode=none
    : >"$out"
    : >"$err"
    ${prog_pin[@]+"${prog_pin[@]}"} "$blazar" run --device cpu --figures "$tmp" --ui "$mode" --ui-no-open \
        "$tmp/refresh.q" >"$out" 2>"$err" &
    local pid=$!
    if [ "$case" = client ] || [ "$case" = chromium ]; then
        for _ in $(seq 100); do grep -q "the form is at" "$err" && break; sleep 0.1; done
        local url
        url=$(sed -n 's/^blazar: the form is at //p' "$err")
        if [ "$case" = client ]; then
            ${page_pin[@]+"${page_pin[@]}"} python3 "$here/page_client.py" "$url" \
                --delay "${CLIENT_DELAY:-16}" --report "$tmp/client" &
        else
            ${page_pin[@]+"${page_pin[@]}"} chromium --headless --no-sandbox --disable-gpu --disable-quic \
                --no-first-run --disable-background-networking --disable-component-update \
                --disable-sync --user-data-dir="$tmp/profile" --remote-debugging-port=0 \
                "$url" >/dev/null 2>&1 &
        fi
        page=$!
    fi
    for _ in $(seq 1200); do
        grep -q "loop ms" "$out" && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.1
    done
    kill -INT $pid 2>/dev/null
    wait $pid 2>/dev/null
    if [ -n "$page" ]; then
        kill -TERM "$page" 2>/dev/null
        wait "$page" 2>/dev/null
    fi
    local ms
    ms=$(sed -n 's/^loop ms //p' "$out")
    [ -n "$ms" ] || { echo "run.sh: $case: no time; the program said:" >&2; cat "$err" >&2; }
    echo "$ms"
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}'; }

echo "binary $blazar; $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg);" \
    "program CPUs ${PROGRAM_CPUS:-all}, page CPUs ${PAGE_CPUS:-all}; $reps repeats"
run_cases=""
for case in $cases; do
    case $case in
    none | server) ;;
    client) command -v python3 >/dev/null || { echo "client: SKIP (no python3)"; continue; } ;;
    chromium) command -v chromium >/dev/null || { echo "chromium: SKIP (no chromium)"; continue; } ;;
    *) echo "run.sh: unknown case $case" >&2; exit 2 ;;
    esac
    run_cases="$run_cases $case"
    : >"$tmp/times.$case"
done
# One run first, untimed: the CPU backend's compiled loops are cached for the others.
one none >/dev/null
for _ in $(seq "$reps"); do
    for case in $run_cases; do
        one "$case" >>"$tmp/times.$case"
    done
done
base=""
for case in $run_cases; do
    times=$(grep . "$tmp/times.$case")
    med=$(echo "$times" | median)
    lo=$(echo "$times" | sort -g | head -1)
    hi=$(echo "$times" | sort -g | tail -1)
    [ "$case" = none ] && base=$med
    rel=""
    [ -n "$base" ] && [ "$case" != none ] && rel=$(awk -v m="$med" -v b="$base" \
        'BEGIN {printf " (%+.1f%% against none)", (m / b - 1) * 100}')
    echo "$case: median $med ms$rel, fastest $lo, slowest $hi; runs: $(echo $times)"
done
[ -s "$tmp/client" ] && sed 's/^/  /' "$tmp/client"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
