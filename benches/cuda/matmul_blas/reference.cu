// nvcc-flags: -lcublas
// 2048x2048 single-precision matrix product through cuBLAS (cublasSgemm, default math
// mode, so no TF32). CUDA reference for benches/cuda/matmul_blas/kernel.q, whose host
// product `C = A * B` of two device-resident matrices Blazar runs through cuBLAS: the
// same data as benches/cuda/matmul (exact multiples of 1/8), built by a kernel. The
// matrices are row-major and cuBLAS is column-major, so C^T = B^T A^T is computed: the
// call takes (N, M, K) and B first. Build: nvcc -O3 -arch=sm_90 -o matmul_blas
// reference.cu -lcublas
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cublas_v2.h>
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

#define CHECK_BLAS(call)                                                              \
    do {                                                                              \
        cublasStatus_t st_ = (call);                                                  \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                           \
            fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__,      \
                    #call, (int)st_);                                                 \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

#define SZ 2048
#define REPS 30

__global__ void make_matrices(float *A, float *B) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    A[i * SZ + j] = (float)((i * 3 + j * 5) % 17) * 0.125f - 1.0f;
    B[i * SZ + j] = (float)((i * 7 + j * 2) % 13) * 0.125f - 0.75f;
}

// Row-major C (M x N) = A (M x K) * B (K x N): in column-major terms C^T = B^T A^T.
static void sgemm(cublasHandle_t h, const float *A, const float *B, float *C) {
    const int M = SZ, N = SZ, K = SZ;
    const float one = 1.0f, zero = 0.0f;
    CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero,
                           C, N));
}

int main() {
    const size_t n = (size_t)SZ * SZ;
    float *A, *B, *C;
    CHECK(cudaMalloc(&A, sizeof(float) * n));
    CHECK(cudaMalloc(&B, sizeof(float) * n));
    CHECK(cudaMalloc(&C, sizeof(float) * n));
    const dim3 block(32, 32), grid(SZ / 32, SZ / 32);
    make_matrices<<<grid, block>>>(A, B);
    CHECK(cudaGetLastError());

    cublasHandle_t h;
    CHECK_BLAS(cublasCreate(&h));
    sgemm(h, A, B, C); // warm-up: loads cuBLAS and its kernels
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        sgemm(h, A, B, C);
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        printf("rep: %.4f ms\n", ms);
    }

    std::vector<float> hC(n);
    CHECK(cudaMemcpy(hC.data(), C, sizeof(float) * n, cudaMemcpyDeviceToHost));
    double s = 0, a = 0;
    for (size_t k = 0; k < n; k++) {
        s += hC[k];
        a += fabs(hC[k]);
    }
    printf("checksum: %.9g\n", s + a);
    CHECK_BLAS(cublasDestroy(h));
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
    return 0;
}
