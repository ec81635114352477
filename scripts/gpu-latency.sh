#!/usr/bin/env bash
# Latency of a scalar read back by host code on the GPU machine: `s = sum(x)` in a host
# loop over a device array (the reduction kernel, then its value on the host). Two
# process runs of N and 10N iterations; their difference per iteration is the cost of
# one statement, start-up excluded. Then the kernel's own time from --profile.
#
#   scripts/gpu-latency.sh [BLAZAR] [ELEMENTS]
set -u
blazar="${1:-.device/blazar}"
n="${2:-1048576}"
tmp="$(mktemp -d)"
prog() {
    cat > "$tmp/l$1.q" <<Q
function [] = __kernel__ fill(x : vec'unchecked, pos : int)
    x[pos] = mod(pos, 7)
endfunction
x = zeros($n)
parallel_do(numel(x), x, fill)
s = 0
for k = 1..$1
    s = s + sum(x)
end
print s > 0
Q
}
prog 1000
prog 11000
t() { local a b; a=$(date +%s%N); "$blazar" run "$1" --device cuda --devices 0 > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000 )); }
# Both programs run once first: their kernels are then in the disk cache, and neither
# timed run compiles (a compile in one of them alone would count as loop time).
t "$tmp/l1000.q" > /dev/null
t "$tmp/l11000.q" > /dev/null
BLAZAR_CUDA_MIRROR=0 t "$tmp/l1000.q" > /dev/null
BLAZAR_CUDA_MIRROR=0 t "$tmp/l11000.q" > /dev/null
a=$(t "$tmp/l1000.q"); b=$(t "$tmp/l11000.q")
echo "s = sum(x), $n elements: $(( (b - a) / 10000 )) us per iteration (host loop, read back included)"
# The same with the read-back of session 16 (an asynchronous copy and a stream wait in
# place of the last block writing mapped host memory that the host polls), same run.
a=$(BLAZAR_CUDA_MIRROR=0 t "$tmp/l1000.q"); b=$(BLAZAR_CUDA_MIRROR=0 t "$tmp/l11000.q")
echo "  with BLAZAR_CUDA_MIRROR=0: $(( (b - a) / 10000 )) us per iteration"
"$blazar" run "$tmp/l1000.q" --device cuda --devices 0 --profile 2>&1 | grep -E 'array_line|kernel ' | head -4
# Host time per launch in the backend (prepare, driver call, wait and read back), the
# host's time between launches, and the whole loop per launch (first launch to last).
BLAZAR_STATS=1 "$blazar" run "$tmp/l11000.q" --device cuda --devices 0 2>&1 | grep -o 'launches=.*span_us=[0-9.]*' 
BLAZAR_CUDA_MIRROR=0 BLAZAR_STATS=1 "$blazar" run "$tmp/l11000.q" --device cuda --devices 0 2>&1 | grep -o 'launches=.*span_us=[0-9.]*' 
# The same loop in CUDA C (scripts/gpu-latency-ref.cu), when nvcc is here: its launch
# call, its kernel on the device and its whole iteration, beside Blazar's above.
if command -v nvcc > /dev/null; then
    here="$(cd "$(dirname "$0")" && pwd)"
    if nvcc -O3 -arch=sm_90 -o "$tmp/ref" "$here/gpu-latency-ref.cu"; then
        "$tmp/ref" "$n"
    fi
else
    echo "cuda-c: nvcc not found: the CUDA C reference was not run"
fi
rm -rf "$tmp"
