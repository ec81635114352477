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
# Correctness first: the multi-device golden programs with every launch split over the
# GPUs that qualifies (BLAZAR_SPLIT_MIN=0: bands, halo copies, split reductions, peer
# copies and events all exercised), against one GPU.
checks=0; bad=0
for set in "${sets[@]:1}"; do
    for f in "$here"/../../tests/programs/multidevice/*.q; do
        want=$(cd "$(dirname "$f")" && "$blazar" run --device cuda --fuse-min 0 "$(basename "$f")" 2>&1)
        got=$(cd "$(dirname "$f")" && BLAZAR_SPLIT_MIN=0 "$blazar" run --device cuda --devices "$set" --fuse-min 0 "$(basename "$f")" 2>&1)
        checks=$((checks + 1))
        if [ "$want" != "$got" ]; then
            bad=$((bad + 1))
            echo "DIFFERS: $(basename "$f") on --devices $set"; echo "$want"; echo "--"; echo "$got"
        fi
    done
done
echo "split correctness: $checks runs, $bad differ"
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
echo "split correctness (multidevice goldens, BLAZAR_SPLIT_MIN=0): $checks runs, $bad differ"
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
