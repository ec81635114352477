"""Sum of 2^26 float32 values with cupy.sum (float32 accumulation, CuPy's reduction).

CuPy reference for benches/cuda/reduce_sum/kernel.q: same data; as in the Quasar
program the total comes back to the host in every repetition, inside the timed region.
Prints `rep: <ms> ms` per repetition (CUDA events) and `checksum: <value>`.
"""
import cupy as cp

LEN, REPS = 1 << 26, 30


def main():
    k = cp.arange(LEN, dtype=cp.int64)
    x = ((k * 7) % 1000).astype(cp.float32) / cp.float32(1000)
    assert x.dtype == cp.float32
    del k
    total = cp.sum(x).get()  # warm-up: compiles the kernel
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(REPS):
        start.record()
        total = cp.sum(x).get()
        stop.record()
        stop.synchronize()
        print(f"rep: {cp.cuda.get_elapsed_time(start, stop):.4f} ms")
    print(f"checksum: {float(total):.9g}")


if __name__ == "__main__":
    main()
