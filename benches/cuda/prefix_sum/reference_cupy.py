"""Inclusive prefix sum of 2^26 float32 values with cupy.cumsum.

CuPy reference for benches/cuda/prefix_sum/kernel.q: the same 0/1 data (every partial
sum is exact in float32), scanned into a preallocated output. Prints `rep: <ms> ms` per
repetition (CUDA events around the call) and `checksum: <value>`.
"""
import cupy as cp

LEN, REPS = 1 << 26, 30


def main():
    k = cp.arange(LEN, dtype=cp.int64)
    x = ((k * 7) % 13 < 3).astype(cp.float32)
    del k
    y = cp.empty_like(x)
    cp.cumsum(x, out=y)  # warm-up: compiles the kernels
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(REPS):
        start.record()
        cp.cumsum(x, out=y)
        stop.record()
        stop.synchronize()
        print(f"rep: {cp.cuda.get_elapsed_time(start, stop):.4f} ms")
    print(f"checksum: {float(cp.sum(y, dtype=cp.float64)):.9g}")


if __name__ == "__main__":
    main()
