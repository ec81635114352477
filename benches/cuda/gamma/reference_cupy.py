"""Gamma correction of a 4096x4096x3 float32 image (values 0..255), out of place.

CuPy reference for benches/cuda/gamma/kernel.q: the same data and formula as one fused
elementwise expression (cupy.fuse), float32 throughout. Prints `rep: <ms> ms` per
repetition (CUDA events around the call) and `checksum: <value>`.
"""
import cupy as cp
import numpy as np

M, N, C, REPS = 4096, 4096, 3, 30


@cp.fuse(kernel_name="gamma_correct")
def gamma_correct(x, scale, g, top):
    return top * (x * scale) ** g


def main():
    i = cp.arange(M, dtype=cp.int64)[:, None, None]
    j = cp.arange(N, dtype=cp.int64)[None, :, None]
    c = cp.arange(C, dtype=cp.int64)[None, None, :]
    x = ((i * 37 + j * 11 + c * 71 + i * j) % 256).astype(cp.float32)
    del i, j, c
    args = (np.float32(1.0 / 255), np.float32(0.45), np.float32(255))
    y = gamma_correct(x, *args)  # warm-up: compiles the fused kernel
    assert y.dtype == cp.float32
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(REPS):
        start.record()
        y = gamma_correct(x, *args)
        stop.record()
        stop.synchronize()
        print(f"rep: {cp.cuda.get_elapsed_time(start, stop):.4f} ms")
    print(f"checksum: {float(cp.sum(y, dtype=cp.float64)):.9g}")


if __name__ == "__main__":
    main()
