#!/usr/bin/env bash
# What forms add to a processing loop that refreshes a display every frame
# (benches/ui/refresh.q): the loop's time headless (--ui none), with the page's server
# running but no page attached, and with headless Chromium showing the page.
# Usage: benches/ui/run.sh [REPEATS]   (needs target/release/blazar or target/debug/blazar;
# chromium for the third case, skipped without it)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
blazar=${BLAZAR:-$root/target/release/blazar}
[ -x "$blazar" ] || blazar=$root/target/debug/blazar
reps=${1:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run; prints the loop's milliseconds. With a page, the run serves it after the loop
# until stopped, so it is stopped (SIGINT) once it printed its time.
one() {
    local mode=$1 out=$tmp/out err=$tmp/err
    : >"$out"; : >"$err"
    "$blazar" run --device cpu --figures "$tmp" --ui "$mode" --ui-no-open "$here/refresh.q" >"$out" 2>"$err" &
    local pid=$! browser=""
    if [ "$mode" = browser ] && [ "${2:-}" = page ]; then
        for _ in $(seq 100); do grep -q "the form is at" "$err" && break; sleep 0.1; done
        local url
        url=$(sed -n 's/^blazar: the form is at //p' "$err")
        chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
            --disable-background-networking --disable-component-update --disable-sync \
            --user-data-dir="$tmp/profile" --remote-debugging-port=0 "$url" >/dev/null 2>&1 &
        browser=$!
    fi
    for _ in $(seq 600); do grep -q "loop ms" "$out" && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
    kill -INT $pid 2>/dev/null; wait $pid 2>/dev/null
    [ -n "$browser" ] && { kill $browser 2>/dev/null; wait $browser 2>/dev/null; }
    sed -n 's/^loop ms //p' "$out"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for case in "none" "browser" "browser page"; do
    [ "$case" = "browser page" ] && ! command -v chromium >/dev/null && { echo "$case: SKIP (no chromium)"; continue; }
    times=$(for _ in $(seq "$reps"); do one $case; done)
    echo "$case: median $(echo "$times" | median) ms of $(echo $times)"
done
