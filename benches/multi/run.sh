#!/usr/bin/env bash
# Several GPUs against one: each program of benches/multi on `--devices 0`, `0,1` and,
# where the host has four GPUs, `0,1,2,3`; prints a table last (ms per repetition, the
# speed-up over one GPU, whether the checksums agree).
#
#   benches/multi/run.sh [path/to/blazar]     (default: target/release/blazar)
#
# BLAZAR_MULTI_PROFILE=1 also saves each multi-GPU run's `--profile` tables to
# $OUT (or /tmp) as multi-<program>-<devices>.txt.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
blazar="${1:-$here/../../target/release/blazar}"
out="${OUT:-/tmp}"
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
sets=("0")
[ "$gpus" -ge 2 ] && sets+=("0,1")
[ "$gpus" -ge 4 ] && sets+=("0,1,2,3")
"$blazar" info || true
declare -A ms sum
for prog in pipelines split_stencil split_sum frames; do
    for set in "${sets[@]}"; do
        log="$out/multi-$prog-${set//,/_}.txt"
        args=(run --device cuda --devices "$set")
        [ "${BLAZAR_MULTI_PROFILE:-0}" = 1 ] && [ "$set" != 0 ] && args+=(--profile)
        res=$(cd "$here" && timeout 300 "$blazar" "${args[@]}" "$prog.q" 2>"$log")
        echo "== $prog --devices $set"
        echo "$res"
        [ -s "$log" ] && tail -n 40 "$log"
        ms[$prog,$set]=$(echo "$res" | sed -n 's/^ms: //p')
        sum[$prog,$set]=$(echo "$res" | sed -n 's/^checksum: //p')
    done
done
echo
echo "target speed-ups over one GPU (issue 30): pipelines >= 1.85, split_stencil >= 1.8, split_sum >= 1.6, frames >= 1.8"
printf '%-14s %-9s %10s %8s %s\n' program devices "ms/rep" speedup checksum
for prog in pipelines split_stencil split_sum frames; do
    base=${ms[$prog,0]:-}
    for set in "${sets[@]}"; do
        m=${ms[$prog,$set]:-}
        s=${sum[$prog,$set]:-}
        sp=$(python3 -c "import sys; b,m=sys.argv[1:]; print(f'{float(b)/float(m):.2f}')" "$base" "$m" 2>/dev/null || echo "-")
        ok=$(python3 -c "import sys; a,b=map(float,sys.argv[1:]); print('ok' if abs(a-b)<=1e-4*max(abs(a),1) else 'DIFFERS')" "${sum[$prog,0]:-nan}" "$s" 2>/dev/null || echo "-")
        printf '%-14s %-9s %10s %8s %s\n' "$prog" "$set" "${m:--}" "$sp" "$ok ($s)"
    done
done
