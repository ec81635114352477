"""Shared by the peers (`ref.py`) of benches/linalg: arguments, data, timing, output.

`blazar bench --suite linalg` runs each peer as `python3 ref.py BACKEND M N C S REPS`
(the arguments of `--suite arrays`; only S, the matrix size, and REPS are used here).
BACKEND is `numpy` (`--device cpu`) or `cupy` (`--device cuda`). The matrices are those
of `common.q`: the same integer formulas of the position, single floats, so both sides
start from identical data. Output: one `rep: <ms> ms` line per repetition after one
warm-up, then `checksum: <value>` (double), as every program of `blazar bench`.
"""
import sys
import time



def parse_args():
    """The backend module, the matrix size S and the repetitions."""
    if len(sys.argv) != 7 or sys.argv[1] not in ("numpy", "cupy"):
        sys.exit("usage: ref.py numpy|cupy M N C S REPS")
    s, reps = int(sys.argv[5]), int(sys.argv[6])
    if sys.argv[1] == "cupy":
        import cupy as xp
    else:
        import numpy as xp
    return xp, s, reps


def g(xp, s, d):
    """G[i, j] = ((7 i^2 + 13 j + 3 i j) % 101) / 16 - 3 + d [i == j], float32."""
    i = xp.arange(s, dtype=xp.int64)[:, None]
    j = xp.arange(s, dtype=xp.int64)[None, :]
    v = ((7 * i * i + 13 * j + 3 * i * j) % 101).astype(xp.float32) * xp.float32(0.0625)
    v = v - xp.float32(3)
    return v + xp.float32(d) * xp.eye(s, dtype=xp.float32)


INPUTS = {
    "G": lambda xp, s: g(xp, s, 0),
    "Gd": lambda xp, s: g(xp, s, s / 8),
    "H": lambda xp, s: g(xp, s, 0) + g(xp, s, 0).T,
    "b": lambda xp, s: (5 * xp.arange(s, dtype=xp.int64) % 11 - 5).astype(xp.float32),
}


def main(op, inputs, checksum):
    """Times `op(xp, *matrices)` over the named inputs, with a warm-up first."""
    xp, s, reps = parse_args()
    data = [INPUTS[name](xp, s) for name in inputs]
    cupy = xp.__name__ == "cupy"
    if cupy:
        start, stop = xp.cuda.Event(), xp.cuda.Event()

    def once():
        if cupy:
            start.record()
            r = op(xp, *data)
            stop.record()
            stop.synchronize()
            return r, xp.cuda.get_elapsed_time(start, stop)
        t0 = time.perf_counter()
        r = op(xp, *data)
        return r, (time.perf_counter() - t0) * 1e3

    r, _ = once()  # warm-up
    for _ in range(reps):
        r, ms = once()
        print(f"rep: {ms:.4f} ms")
    print(f"checksum: {checksum(xp, r):.9g}")
