"""Sorts each row of an 8192x1024 float32 matrix with cupy.sort(axis=-1).

CuPy reference for benches/cuda/row_sort/kernel.q: same data, out of place. Prints
`rep: <ms> ms` per repetition (CUDA events around the call) and `checksum: <value>`.
"""
import cupy as cp

M, N, REPS = 8192, 1024, 30


def main():
    i = cp.arange(M, dtype=cp.int64)[:, None]
    j = cp.arange(N, dtype=cp.int64)[None, :]
    v = (i * i * 29 + j * j * 17 + i * j * 7 + i * 3 + j) % 65536
    x = v.astype(cp.float32) / cp.float32(65536)
    assert x.dtype == cp.float32
    del i, j, v
    y = cp.sort(x, axis=-1)  # warm-up: compiles the kernels
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(REPS):
        start.record()
        y = cp.sort(x, axis=-1)
        stop.record()
        stop.synchronize()
        print(f"rep: {cp.cuda.get_elapsed_time(start, stop):.4f} ms")
    # as sum(y .* (0..N - 1)): products in float32, the sum in float64
    w = cp.arange(N, dtype=cp.float32)[None, :]
    print(f"checksum: {float(cp.sum(y * w, dtype=cp.float64)):.9g}")


if __name__ == "__main__":
    main()
