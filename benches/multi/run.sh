#!/usr/bin/env bash
# Several GPUs against one: each program of benches/multi on each device set, the first
# set being the baseline; prints one table last: per program, milliseconds per
# repetition on each set and the speed-up over the first, and whether the checksums
# agree.
#
#   benches/multi/run.sh [path/to/blazar] [DEVICES ...]
#
# DEVICES are `--devices` values, e.g. `0 0,1 0,1,2,3` (1, 2 and 4 GPUs in one visit);
# by default `0`, `0,1` where the host has two GPUs and `0,1,2,3` where it has four.
# The blazar binary defaults to target/release/blazar.
#
# BLAZAR_MULTI_PROFILE=1 also saves each multi-GPU run's `--profile` tables to
# $OUT (or /tmp) as multi-<program>-<devices>.txt.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
blazar="$here/../../target/release/blazar"
if [ $# -gt 0 ] && [ -x "$1" ] && [ ! -d "$1" ]; then
    blazar="$1"
    shift
fi
out="${OUT:-/tmp}"
sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
    gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
    sets=("0")
    [ "$gpus" -ge 2 ] && sets+=("0,1")
    [ "$gpus" -ge 4 ] && sets+=("0,1,2,3")
fi
"$blazar" info || true
# Correctness first: the multi-device golden programs with every launch split over the
# GPUs that qualifies (BLAZAR_SPLIT_MIN=0: bands, halo copies, split reductions, peer
# copies and events all exercised), against one GPU.
checks=0; bad=0
for set in "${sets[@]:1}"; do
    for f in "$here"/../../tests/programs/multidevice/*.q; do
        want=$(cd "$(dirname "$f")" && "$blazar" run --device cuda --devices "${sets[0]}" --fuse-min 0 "$(basename "$f")" 2>&1)
        got=$(cd "$(dirname "$f")" && BLAZAR_SPLIT_MIN=0 "$blazar" run --device cuda --devices "$set" --fuse-min 0 "$(basename "$f")" 2>&1)
        checks=$((checks + 1))
        if [ "$want" != "$got" ]; then
            bad=$((bad + 1))
            echo "DIFFERS: $(basename "$f") on --devices $set"; echo "$want"; echo "--"; echo "$got"
        fi
    done
done
echo "split correctness: $checks runs, $bad differ"
progs=(pipelines split_stencil split_sum frames)
declare -A ms sum
for prog in "${progs[@]}"; do
    for set in "${sets[@]}"; do
        log="$out/multi-$prog-${set//,/_}.txt"
        args=(run --device cuda --devices "$set")
        [ "${BLAZAR_MULTI_PROFILE:-0}" = 1 ] && [ "$set" != "${sets[0]}" ] && args+=(--profile)
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
# One row per program; per device set its ms per repetition and, after the first, the
# speed-up over the first set in brackets; then whether every checksum agrees.
header=$(printf '%-14s' program)
for set in "${sets[@]}"; do
    n=$(echo "$set" | tr ',' '\n' | wc -l)
    label="$n GPUs ($set)"
    [ "$n" = 1 ] && label="1 GPU ($set)"
    [ "$set" = all ] && label="all GPUs"
    header+=$(printf ' %20s' "$label")
done
echo "$header  checksums"
for prog in "${progs[@]}"; do
    base=${ms[$prog,${sets[0]}]:-}
    row=$(printf '%-14s' "$prog")
    agree=ok
    for set in "${sets[@]}"; do
        m=${ms[$prog,$set]:-}
        if [ "$set" = "${sets[0]}" ]; then
            cell="${m:--}"
        else
            sp=$(python3 -c "import sys; b,m=sys.argv[1:]; print(f'{float(b)/float(m):.2f}x')" "$base" "$m" 2>/dev/null || echo "-")
            cell="${m:--} ($sp)"
        fi
        row+=$(printf ' %20s' "$cell")
        same=$(python3 -c "import sys; a,b=map(float,sys.argv[1:]); print('ok' if abs(a-b)<=1e-4*max(abs(a),1) else 'DIFFERS')" "${sum[$prog,${sets[0]}]:-nan}" "${sum[$prog,$set]:-nan}" 2>/dev/null || echo "DIFFERS")
        [ "$same" = ok ] || agree="DIFFERS ($set: ${sum[$prog,$set]:-none})"
    done
    echo "$row  $agree (${sum[$prog,${sets[0]}]:-none})"
done
