"""256-bin histogram of an 8192x8192 image of 8-bit intensities stored as float32.

CuPy reference for benches/cuda/histogram/kernel.q: cupy.histogram with 256 bins over
[0, 256) on the float image as it is (no conversion pass). Prints `rep: <ms> ms` per
repetition (CUDA events around the call) and `checksum: <value>`.
"""
import cupy as cp

M, N, REPS = 8192, 8192, 30


def main():
    i = cp.arange(M, dtype=cp.int64)[:, None]
    j = cp.arange(N, dtype=cp.int64)[None, :]
    x = ((i * 37 + j * 11 + i * j * 7) % 256).astype(cp.float32)
    del i, j

    def run():
        return cp.histogram(x, bins=256, range=(0, 256))[0]

    h = run()  # warm-up: compiles the kernels
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(REPS):
        start.record()
        h = run()
        stop.record()
        stop.synchronize()
        print(f"rep: {cp.cuda.get_elapsed_time(start, stop):.4f} ms")
    hf = h.astype(cp.float32)  # as sum(h .* h) over a float histogram: squares in float
    print(f"checksum: {float(cp.sum(hf * hf, dtype=cp.float64)):.9g}")


if __name__ == "__main__":
    main()
