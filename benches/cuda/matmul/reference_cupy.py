"""2048x2048 float32 matrix product with cupy.matmul (cuBLAS SGEMM).

CuPy reference for benches/cuda/matmul/kernel.q and benches/cuda/matmul_blas/kernel.q
(this file is identical in both folders): same exact inputs (multiples of 1/8), the
product written into a preallocated output. Prints `rep: <ms> ms` per repetition (CUDA
events around the call) and `checksum: <value>`.
"""
import cupy as cp

SZ, REPS = 2048, 30


def main():
    i = cp.arange(SZ, dtype=cp.int64)[:, None]
    j = cp.arange(SZ, dtype=cp.int64)[None, :]
    A = ((i * 3 + j * 5) % 17).astype(cp.float32) * cp.float32(0.125) - cp.float32(1)
    B = ((i * 7 + j * 2) % 13).astype(cp.float32) * cp.float32(0.125) - cp.float32(0.75)
    assert A.dtype == cp.float32 and B.dtype == cp.float32
    C = cp.empty_like(A)
    cp.matmul(A, B, out=C)  # warm-up: loads cuBLAS
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(REPS):
        start.record()
        cp.matmul(A, B, out=C)
        stop.record()
        stop.synchronize()
        print(f"rep: {cp.cuda.get_elapsed_time(start, stop):.4f} ms")
    s = float(cp.sum(C, dtype=cp.float64))
    a = float(cp.sum(cp.abs(C), dtype=cp.float64))
    print(f"checksum: {s + a:.9g}")


if __name__ == "__main__":
    main()
