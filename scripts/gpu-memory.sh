#!/usr/bin/env bash
# Peak device memory of a fused chain on the GPU machine: `y = 255*(x/255).^0.45` on a
# 600 MB image should hold only x and y (no temporaries). Polls nvidia-smi while the
# program runs the statement in a loop; prints the baseline (x alone) and the peak.
#
#   scripts/gpu-memory.sh [BLAZAR]
set -u
blazar="${1:-.device/blazar}"
tmp="$(mktemp -d)"
cat > "$tmp/base.q" <<'Q'
function [] = __kernel__ fill(x : cube'unchecked, pos : ivec3)
    x[pos] = mod(pos[0] * 7 + pos[1] * 3 + pos[2], 256)
endfunction
x = zeros(5000, 10000, 3)
parallel_do(size(x), x, fill)
s = 0
for k = 1..400
    s = s + sum(x)
end
print s > 0
Q
sed 's/    s = s + sum(x)/    y = 255 * (x \/ 255) .^ 0.45\n    s = s + sum(y)/' "$tmp/base.q" > "$tmp/chain.q"
peak() {
    "$blazar" run "$1" --device cuda --devices 0 > /dev/null 2>&1 &
    local pid=$! max=0 m
    while kill -0 "$pid" 2> /dev/null; do
        m=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -1)
        [ "$m" -gt "$max" ] && max=$m
        sleep 0.05
    done
    echo "$max"
}
base=$(peak "$tmp/base.q")
chain=$(peak "$tmp/chain.q")
echo "image: 600 MB (5000x10000x3 f32)"
echo "peak MiB with x alone (sum in a loop): $base"
echo "peak MiB with y = 255*(x/255).^0.45 in a loop: $chain (difference $((chain - base)) MiB; y is 572 MiB)"
