"""One level of the forward 2-D Haar transform (unnormalised) of a 4096x4096x3 image.

CuPy reference for benches/cuda/haar/kernel.q, written with strided slices and
ufuncs into preallocated halves (no temporaries): the horizontal pass into a
temporary image, then the vertical pass. Prints `rep: <ms> ms` per repetition (CUDA
events around the calls) and `checksum: <value>`.
"""
import cupy as cp
import numpy as np

M, N, C, REPS = 4096, 4096, 3, 30
HALF = np.float32(0.5)


def pairs(src, dst, axis):
    """Averages of the pairs of `src` along `axis` to the first half of `dst`,
    differences to the second half."""
    n = src.shape[axis] // 2
    a = src[:, 0::2] if axis == 1 else src[0::2]
    b = src[:, 1::2] if axis == 1 else src[1::2]
    avg = dst[:, :n] if axis == 1 else dst[:n]
    diff = dst[:, n:] if axis == 1 else dst[n:]
    cp.add(a, b, out=avg)
    cp.multiply(avg, HALF, out=avg)
    cp.subtract(a, b, out=diff)


def main():
    i = cp.arange(M, dtype=cp.int64)[:, None, None]
    j = cp.arange(N, dtype=cp.int64)[None, :, None]
    c = cp.arange(C, dtype=cp.int64)[None, None, :]
    x = ((i * 37 + j * 11 + c * 71 + i * j) % 256).astype(cp.float32)
    del i, j, c
    t = cp.empty_like(x)
    y = cp.empty_like(x)

    def run():
        pairs(x, t, 1)
        pairs(t, y, 0)

    run()  # warm-up: compiles the kernels
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(REPS):
        start.record()
        run()
        stop.record()
        stop.synchronize()
        print(f"rep: {cp.cuda.get_elapsed_time(start, stop):.4f} ms")
    s = float(cp.sum(y, dtype=cp.float64))
    a = float(cp.sum(cp.abs(y), dtype=cp.float64))
    print(f"checksum: {s + 3 * a:.9g}")


if __name__ == "__main__":
    main()
