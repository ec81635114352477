// One step of Conway's Game of Life on an 8192x8192 board of 0/1 float cells, dead
// cells outside the board. CUDA reference for benches/cuda/life/kernel.q: one thread
// per cell, the neighbour reads left to the caches.
// Build: nvcc -O3 -arch=sm_90 -o life reference.cu
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

#define M 8192
#define N 8192
#define REPS 30

__global__ void make_board(float *a) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (j >= N) return;
    a[(size_t)i * N + j] = ((i * j) % 1021 * 13 + i * 3 + j * 5) % 7 < 2 ? 1.0f : 0.0f;
}

__device__ __forceinline__ float cell(const float *__restrict__ a, int i, int j) {
    return (i >= 0 && i < M && j >= 0 && j < N) ? a[(size_t)i * N + j] : 0.0f;
}

__global__ void life_step(const float *__restrict__ a, float *__restrict__ b) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (j >= N) return;
    float live = cell(a, i - 1, j - 1) + cell(a, i - 1, j) + cell(a, i - 1, j + 1) +
                 cell(a, i, j - 1) + cell(a, i, j + 1) +
                 cell(a, i + 1, j - 1) + cell(a, i + 1, j) + cell(a, i + 1, j + 1);
    float me = a[(size_t)i * N + j];
    b[(size_t)i * N + j] = (live == 3.0f || (live == 2.0f && me == 1.0f)) ? 1.0f : 0.0f;
}

int main() {
    const size_t n = (size_t)M * N;
    float *a, *b;
    CHECK(cudaMalloc(&a, sizeof(float) * n));
    CHECK(cudaMalloc(&b, sizeof(float) * n));
    const dim3 grid(N / 256, M), block(256);
    make_board<<<grid, block>>>(a);
    CHECK(cudaGetLastError());
    life_step<<<grid, block>>>(a, b); // warm-up
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        life_step<<<grid, block>>>(a, b);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        printf("rep: %.4f ms\n", ms);
    }

    std::vector<float> h(n);
    CHECK(cudaMemcpy(h.data(), b, sizeof(float) * n, cudaMemcpyDeviceToHost));
    double s = 0, w = 0;
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++) {
            s += h[i * N + j];
            w += h[i * N + j] * (double)i;
        }
    printf("checksum: %.9g\n", s + w / 8192);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    return 0;
}
