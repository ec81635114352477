"""Gaussian blur (sigma 2) of an 8192x8192 float32 image, separable 9-tap, zero extension.

CuPy reference for benches/cuda/gauss9/kernel.q: cupyx.scipy.ndimage.correlate1d along
the rows into a temporary, then along the columns, with the normalised 9-tap weights of
the Quasar program, mode='constant', cval=0. Prints `rep: <ms> ms` per repetition (CUDA
events around the calls) and `checksum: <value>`.
"""
import cupy as cp
import numpy as np
from cupyx.scipy import ndimage

M, N, R, REPS = 8192, 8192, 4, 30


def main():
    sigma = np.float32(2.0)
    k = np.arange(-R, R + 1, dtype=np.float32)
    w = np.exp(-(k * k) / (np.float32(2) * sigma * sigma)).astype(np.float32)
    w = cp.asarray(w / w.sum(dtype=np.float32))
    i = cp.arange(M, dtype=cp.int64)[:, None]
    j = cp.arange(N, dtype=cp.int64)[None, :]
    x = ((i * 37 + j * 11 + i * j) % 256).astype(cp.float32)
    del i, j
    t = cp.empty_like(x)
    y = cp.empty_like(x)

    def run():
        ndimage.correlate1d(x, w, axis=0, output=t, mode="constant", cval=0.0)
        ndimage.correlate1d(t, w, axis=1, output=y, mode="constant", cval=0.0)

    run()  # warm-up: compiles the kernels
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(REPS):
        start.record()
        run()
        stop.record()
        stop.synchronize()
        print(f"rep: {cp.cuda.get_elapsed_time(start, stop):.4f} ms")
    print(f"checksum: {float(cp.sum(y, dtype=cp.float64)):.9g}")


if __name__ == "__main__":
    main()
