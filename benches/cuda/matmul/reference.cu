// 2048x2048 single-precision matrix product, the textbook shared-memory tiled kernel:
// blocks of 32x32 threads, one output element per thread, a 32x32 tile of A and one of
// B staged in shared memory per step. CUDA reference for benches/cuda/matmul/kernel.q
// (hand-written, no cuBLAS; the CuPy reference is cuBLAS). Exact inputs: multiples of
// 1/8. Build: nvcc -O3 -arch=sm_90 -o matmul reference.cu
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t err_ = (call);                                                    \
        if (err_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,             \
                    cudaGetErrorString(err_));                                        \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

#define SZ 2048
#define TILE 32
#define REPS 30

__global__ void make_matrices(float *A, float *B) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    A[i * SZ + j] = (float)((i * 3 + j * 5) % 17) * 0.125f - 1.0f;
    B[i * SZ + j] = (float)((i * 7 + j * 2) % 13) * 0.125f - 0.75f;
}

__global__ void matmul(const float *__restrict__ A, const float *__restrict__ B,
                       float *__restrict__ C) {
    __shared__ float tA[TILE][TILE];
    __shared__ float tB[TILE][TILE];
    int r = threadIdx.y, c = threadIdx.x;
    int row = blockIdx.y * TILE + r, col = blockIdx.x * TILE + c;
    float acc = 0.0f;
    for (int t = 0; t < SZ; t += TILE) {
        tA[r][c] = A[row * SZ + t + c];
        tB[r][c] = B[(t + r) * SZ + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) acc += tA[r][k] * tB[k][c];
        __syncthreads();
    }
    C[row * SZ + col] = acc;
}

int main() {
    const size_t n = (size_t)SZ * SZ;
    float *A, *B, *C;
    CHECK(cudaMalloc(&A, sizeof(float) * n));
    CHECK(cudaMalloc(&B, sizeof(float) * n));
    CHECK(cudaMalloc(&C, sizeof(float) * n));
    const dim3 block(TILE, TILE), grid(SZ / TILE, SZ / TILE);
    make_matrices<<<grid, block>>>(A, B);
    CHECK(cudaGetLastError());
    matmul<<<grid, block>>>(A, B, C); // warm-up
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        matmul<<<grid, block>>>(A, B, C);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        printf("rep: %.4f ms\n", ms);
    }

    std::vector<float> h(n);
    CHECK(cudaMemcpy(h.data(), C, sizeof(float) * n, cudaMemcpyDeviceToHost));
    double s = 0, a = 0;
    for (size_t k = 0; k < n; k++) {
        s += h[k];
        a += fabs(h[k]);
    }
    printf("checksum: %.9g\n", s + a);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
    return 0;
}
