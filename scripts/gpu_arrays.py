#!/usr/bin/env python3
"""Whole-array statements on the GPU: Blazar (fused kernels, `toc` device time) against
CuPy (CUDA events) in the same run, 4096x4096x3 single floats.

    python3 scripts/gpu_arrays.py [BLAZAR] [--reps N] [--out DIR]

Each statement runs once to warm up (Blazar compiles its kernel, CuPy its own), then
`reps` times; the table gives each side's median with its min-max spread and the ratio.
Scalar results (`sum`, `max`) are read back to the host on both sides, as a host loop
that uses them would. Needs only Python 3 and, for the peer column, CuPy.
"""
import os, re, statistics, subprocess, sys, tempfile

OPS = [
    # name, Blazar statement, CuPy statement
    ("x + 1", "y = x + 1", "y = x + 1"),
    ("x.^2", "y = x.^2", "y = x**2"),
    ("255*(x/255).^0.45", "y = 255*(x/255).^0.45", "y = 255*(x/255)**0.45"),
    ("exp(-x/64)", "y = exp(-x/64)", "y = cp.exp(-x/64)"),
    ("max(x, 100)", "y = max(x, 100)", "y = cp.maximum(x, 100)"),
    ("x > 128", "y = x > 128", "y = x > 128"),
    ("sqrt(abs(x-100))+mod(x,7)", "y = sqrt(abs(x - 100)) + mod(x, 7)",
     "y = cp.sqrt(cp.abs(x - 100)) + cp.fmod(x, 7)"),
    ("x .* z + w", "y = x .* z + w", "y = x * z + w"),
    ("atan2(x, z)", "y = atan2(x, z)", "y = cp.arctan2(x, z)"),
    ("sum(x)", "s = sum(x)", "s = float(cp.sum(x))"),
    ("max(x)", "s = max(x)", "s = float(cp.max(x))"),
    ("mean(x)", "s = mean(x)", "s = float(cp.mean(x))"),
    ("sum((x - z).^2)", "s = sum((x - z).^2)", "s = float(cp.sum((x - z)**2))"),
]

SETUP_Q = """
function [] = __kernel__ make(x : cube'unchecked, k : int, pos : ivec3)
    x[pos] = mod(pos[0] * 37 + pos[1] * 11 + pos[2] * 71 + pos[0] * pos[1] * k, 256)
endfunction
x = zeros(4096, 4096, 3)
z = zeros(4096, 4096, 3)
w = zeros(4096, 4096, 3)
parallel_do(size(x), x, 1, make)
parallel_do(size(z), z, 3, make)
parallel_do(size(w), w, 5, make)
z = z + 1
"""


def blazar_times(blazar, stmt, reps, tmp):
    src = SETUP_Q + f"{stmt}\nfor r = 1..{reps}\n    tic()\n    {stmt}\n    toc(\"rep\")\nendfor\n"
    path = os.path.join(tmp, "op.q")
    with open(path, "w") as f:
        f.write(src)
    p = subprocess.run([blazar, "run", path, "--device", "cuda"], capture_output=True,
                       text=True, timeout=600)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1:] or ["failed"]
    t = [float(m) for m in re.findall(r"rep: ([0-9.eE+-]+) ms", p.stdout)]
    return t, None


def cupy_times(stmt, reps):
    try:
        import cupy as cp
    except ImportError:
        return None
    i, j, c = cp.meshgrid(cp.arange(4096), cp.arange(4096), cp.arange(3), indexing="ij")
    mk = lambda k: cp.mod(i * 37 + j * 11 + c * 71 + i * j * k, 256).astype(cp.float32)
    env = {"cp": cp, "x": mk(1), "z": mk(3) + 1, "w": mk(5)}
    code = compile(stmt, "<op>", "exec")
    exec(code, env)
    cp.cuda.Device().synchronize()
    out = []
    a, b = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(reps):
        a.record()
        exec(code, env)
        b.record()
        b.synchronize()
        out.append(cp.cuda.get_elapsed_time(a, b))
    return out


def fmt(t):
    if not t:
        return "-"
    return f"{statistics.median(t):.3f} ({min(t):.3f}-{max(t):.3f})"


def main():
    args = sys.argv[1:]
    blazar = ".device/blazar"
    reps = 20
    while args:
        a = args.pop(0)
        if a == "--reps":
            reps = int(args.pop(0))
        else:
            blazar = a
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, bq, cq in OPS:
            bt, err = blazar_times(os.path.abspath(blazar), bq, reps, tmp)
            ct = cupy_times(cq, reps)
            ratio = (statistics.median(bt) / statistics.median(ct)) if bt and ct else None
            rows.append((name, fmt(bt) if bt else f"error: {err}", fmt(ct), ratio))
    print(f"| operation | Blazar ms (min-max) | CuPy ms (min-max) | ratio |")
    print("|---|---|---|---|")
    for name, b, c, r in rows:
        print(f"| `{name}` | {b} | {c} | {'-' if r is None else f'{r:.2f}'} |")
    ratios = [r for *_, r in rows if r]
    if ratios:
        print(f"median ratio {statistics.median(ratios):.2f} over {len(ratios)} operations")


if __name__ == "__main__":
    main()
