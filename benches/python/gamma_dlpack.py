"""Gamma correction of a CuPy array on the GPU: blazar through DLPack against CuPy.

    python benches/python/gamma_dlpack.py [--shape 4096 4096 3] [--repeat 20]

Target (issue 31): `blazar.elementwise("255*(x/255)^g")` on a 4096x4096x3 float32 CuPy
array <= 1.1x CuPy's own `ElementwiseKernel`, with no host copy (the CuPy array goes in
and the result comes out through DLPack, on the device). Each timing is the best of
`--repeat` runs of one call followed by a device synchronisation, from CUDA events.
Prints one table; exits with status 1 if a result is wrong.
"""

import argparse
import sys

import blazar


def device_ms(cp, f, repeat):
    """The best device time of `f()` over `repeat` runs (after two warm-up runs)."""
    for _ in range(2):
        f()
    cp.cuda.Device().synchronize()
    best = float("inf")
    for _ in range(repeat):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        f()
        end.record()
        end.synchronize()
        best = min(best, cp.cuda.get_elapsed_time(start, end))
    return best


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shape", type=int, nargs="+", default=[4096, 4096, 3])
    p.add_argument("--repeat", type=int, default=20)
    a = p.parse_args()
    try:
        import cupy as cp
    except ImportError:
        print("skipped: CuPy is not installed")
        return 0
    if not blazar.cuda_available():
        print("skipped: no usable CUDA device")
        return 0
    shape = tuple(a.shape)
    x = cp.random.uniform(0, 255, shape, dtype=cp.float32)
    g = 0.45
    ek = cp.ElementwiseKernel("float32 x, float32 g", "float32 y",
                              "y = 255.0f * powf(x / 255.0f, g)", "gamma_cupy")
    want = ek(x, cp.float32(g))

    f = blazar.elementwise("255*(x/255)^g", device="cuda")
    k = blazar.kernel("__kernel__ (x : cube, y : cube, g : scalar, pos : ivec3) -> "
                      "y[pos] = 255*(x[pos]/255)^g", device="cuda")
    y = cp.empty_like(x)

    rows = []
    t_cupy = device_ms(cp, lambda: ek(x, cp.float32(g)), a.repeat)
    rows.append(("cupy ElementwiseKernel", t_cupy, True))

    got = cp.from_dlpack(f(x, g))
    ok = bool(cp.allclose(got, want, rtol=1e-4, atol=1e-3))
    t_elem = device_ms(cp, lambda: f(x, g), a.repeat)
    rows.append(("blazar.elementwise (CuPy in, DLArray out)", t_elem, ok))

    k(shape, x, y, g)
    ok_k = bool(cp.allclose(y, want, rtol=1e-4, atol=1e-3))
    t_kern = device_ms(cp, lambda: k(shape, x, y, g), a.repeat)
    rows.append(("blazar.kernel (writes a CuPy array in place)", t_kern, ok_k))

    mb = x.nbytes / 1e6
    print(f"gamma 255*(x/255)^g on {shape} float32 ({mb:.0f} MB in, {mb:.0f} MB out), "
          f"{cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
    print(f"{'':46} {'ms':>8} {'GB/s':>7} {'vs CuPy':>8}  correct")
    for name, ms, good in rows:
        gbs = 2 * x.nbytes / (ms * 1e-3) / 1e9
        print(f"{name:46} {ms:8.3f} {gbs:7.0f} {ms / t_cupy:7.2f}x  {'yes' if good else 'NO'}")
    st = f.memory_stats()
    print(f"pool of blazar.elementwise: allocs={st['allocs']} reuses={st['reuses']} "
          f"returned={st['returned']} export_copies={st['export_copies']}")
    print("target: blazar.elementwise <= 1.1x CuPy: "
          f"{'met' if t_elem <= 1.1 * t_cupy else 'not met'}")
    return 0 if all(r[2] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
