"""Shared by the peers (`ref.py`) of benches/arrays: arguments, data, timing, output.

`blazar bench --suite arrays` runs each peer as `python3 ref.py BACKEND M N C S REPS`:
BACKEND is `numpy` (`--device cpu`) or `cupy` (`--device cuda`), the images are
M x N x C single floats, the matrices of the product S x S, and REPS repetitions are
timed after one warm-up. Each `ref.py` calls `main` with its operation, written as a
NumPy/CuPy user writes it (`xp` is the module). The data are those of `common.q`: the
same integer formulas of the position, so both sides start from identical arrays.

Output, as every program of `blazar bench`: one `rep: <ms> ms` line per repetition
(`time.perf_counter` around the operation with NumPy; a pair of CUDA events with CuPy,
so that only device time counts, as Blazar's `toc` on the GPU) and one
`checksum: <value>` line, the sum of the result in double (or the value itself for a
reduction), computed after timing.
"""
import sys
import time


def usage():
    sys.exit("usage: ref.py numpy|cupy M N C S REPS")


def parse_args():
    if len(sys.argv) != 7 or sys.argv[1] not in ("numpy", "cupy"):
        usage()
    try:
        m, n, c, s, reps = (int(a) for a in sys.argv[2:])
    except ValueError:
        usage()
    if sys.argv[1] == "cupy":
        import cupy as xp
    else:
        import numpy as xp
    return xp, (m, n, c, s), reps


def cube(xp, m, n, c, coef):
    """x[i, j, k] = (a*i + b*j + c*k + d*i*j) % 256 + e, float32."""
    a, b, cc, d, e = coef
    i = xp.arange(m, dtype=xp.int64)[:, None, None]
    j = xp.arange(n, dtype=xp.int64)[None, :, None]
    k = xp.arange(c, dtype=xp.int64)[None, None, :]
    return ((a * i + b * j + cc * k + d * i * j) % 256 + e).astype(xp.float32)


def mat(xp, s, p, q, r, scale, offset):
    """A[i, j] = ((p*i + q*j) % r) * scale - offset, float32 (exact)."""
    i = xp.arange(s, dtype=xp.int64)[:, None]
    j = xp.arange(s, dtype=xp.int64)[None, :]
    v = ((p * i + q * j) % r).astype(xp.float32)
    return v * xp.float32(scale) - xp.float32(offset)


INPUTS = {
    "x": lambda xp, m, n, c, s: cube(xp, m, n, c, (37, 11, 71, 1, 0)),
    "y": lambda xp, m, n, c, s: cube(xp, m, n, c, (13, 7, 29, 3, 1)),
    "z": lambda xp, m, n, c, s: cube(xp, m, n, c, (5, 17, 3, 7, 0)),
    "g": lambda xp, m, n, c, s: cube(xp, m, n, c, (37, 11, 71, 1, 0))[:, :, 0].copy(),
    "A": lambda xp, m, n, c, s: mat(xp, s, 3, 5, 17, 0.125, 1),
    "B": lambda xp, m, n, c, s: mat(xp, s, 7, 2, 13, 0.125, 0.75),
}


def total(xp, r):
    """The sum of an array in double, or a reduction's value."""
    if isinstance(r, (int, float)):
        return float(r)
    return float(xp.sum(r, dtype=xp.float64))


def main(op, inputs, setup=None, checksum=total):
    """Times `op(xp, *arrays)` over the named inputs; `setup(*arrays)` (untimed, before
    each run) may replace the arrays, say by a fresh copy for an in-place update."""
    xp, sizes, reps = parse_args()
    data = [INPUTS[name](xp, *sizes) for name in inputs]
    cupy = xp.__name__ == "cupy"
    if cupy:
        start, stop = xp.cuda.Event(), xp.cuda.Event()

    def once():
        args = setup(*data) if setup else data
        if cupy:
            start.record()
            r = op(xp, *args)
            stop.record()
            stop.synchronize()
            return r, xp.cuda.get_elapsed_time(start, stop)
        t0 = time.perf_counter()
        r = op(xp, *args)
        return r, (time.perf_counter() - t0) * 1e3

    r, _ = once()  # warm-up (CuPy compiles its kernels here)
    for _ in range(reps):
        r, ms = once()
        print(f"rep: {ms:.4f} ms")
    print(f"checksum: {checksum(xp, r):.9g}")
