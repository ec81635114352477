"""3x3 mean filter of a 4096x4096x3 float32 image, separable, zero extension.

CuPy reference for benches/cuda/box3x3_separable/kernel.q:
cupyx.scipy.ndimage.uniform_filter with size (3, 3, 1), mode='constant', cval=0, which
filters one axis at a time (the rows, then the columns) through a temporary. Prints
`rep: <ms> ms` per repetition (CUDA events around the call) and `checksum: <value>`.
"""
import cupy as cp
from cupyx.scipy import ndimage

M, N, C, REPS = 4096, 4096, 3, 30


def main():
    i = cp.arange(M, dtype=cp.int64)[:, None, None]
    j = cp.arange(N, dtype=cp.int64)[None, :, None]
    c = cp.arange(C, dtype=cp.int64)[None, None, :]
    x = ((i * 37 + j * 11 + c * 71 + i * j) % 256).astype(cp.float32)
    del i, j, c
    y = cp.empty_like(x)

    def run():
        ndimage.uniform_filter(x, size=(3, 3, 1), output=y, mode="constant", cval=0.0)

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
