"""Blazar from Python: call overhead and a gamma correction against NumPy (and CuPy).

    python benches/python/bench_python.py            # after `pip install ./crates/blazar-py`

Targets (issue 31): a trivial call <= 5 us; gamma of 4096x4096x3 float32 through
`blazar.elementwise` <= 1.0x NumPy on the CPU, <= 1.1x CuPy's ElementwiseKernel on a GPU.
"""

import argparse
import time

import numpy as np

import blazar


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def call_overhead(n):
    m = blazar.module("function y = f(x)\n    y = x\nend\n", device="cpu")
    f = m.f
    for _ in range(1000):
        f(1.0)
    t = best(lambda: [f(1.0) for _ in range(n)], 5) / n
    a = np.float64(1.0)
    u = best(lambda: [np.add(a, a) for _ in range(n)], 5) / n
    print(f"call overhead: blazar f(1.0) {t * 1e6:.2f} us   numpy ufunc np.add {u * 1e6:.2f} us")


def gamma_cpu(shape, repeat):
    x = np.random.default_rng(0).uniform(0, 255, shape).astype(np.float32)
    g = np.float32(0.45)
    f = blazar.elementwise("255*(x/255)^g", device="cpu")
    want = 255 * (x / 255) ** g
    np.testing.assert_allclose(f(x, 0.45), want, rtol=1e-4)
    tn = best(lambda: 255 * (x / 255) ** g, repeat)
    tb = best(lambda: f(x, 0.45), repeat)
    print(f"gamma {shape} float32 on the CPU: numpy {tn * 1e3:.1f} ms   "
          f"blazar.elementwise {tb * 1e3:.1f} ms   ratio {tb / tn:.2f}x")


def gamma_gpu(shape, repeat):
    try:
        import cupy as cp
    except ImportError:
        print("gamma on the GPU: skipped (no CuPy)")
        return
    if not blazar.cuda_available():
        print("gamma on the GPU: skipped (no CUDA device)")
        return
    x = cp.random.uniform(0, 255, shape, dtype=cp.float32)
    k = cp.ElementwiseKernel("float32 x, float32 g", "float32 y",
                             "y = 255*powf(x/255, g)", "gamma")

    def run_cupy():
        k(x, cp.float32(0.45))
        cp.cuda.Stream.null.synchronize()

    tc = best(run_cupy, repeat)
    f = blazar.elementwise("255*(x/255)^g", device="cuda")
    xh = cp.asnumpy(x)
    f(xh, 0.45)
    tb = best(lambda: f(xh, 0.45), repeat)
    print(f"gamma {shape} float32 on the GPU: cupy ElementwiseKernel {tc * 1e3:.2f} ms   "
          f"blazar.elementwise on NumPy arrays (with host<->device copies) {tb * 1e3:.2f} ms")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--small", action="store_true", help="512x512x3 instead of 4096x4096x3")
    a = p.parse_args()
    shape = (512, 512, 3) if a.small else (4096, 4096, 3)
    call_overhead(a.calls)
    gamma_cpu(shape, a.repeat)
    gamma_gpu(shape, a.repeat)


if __name__ == "__main__":
    main()
