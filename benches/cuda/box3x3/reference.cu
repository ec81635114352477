// 3x3 mean filter of a 4096x4096x3 float image, non-separable, zero extension.
// CUDA reference for benches/cuda/box3x3/kernel.q (same summation order): one thread
// per output element, a 2-D grid of one image row per grid row; the overlapping reads
// of neighbouring threads are left to the caches.
// Build: nvcc -O3 -arch=sm_90 -o box3x3 reference.cu
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

#define M 4096
#define N 4096
#define C 3
#define REPS 30
#define ROW (N * C) // floats per image row: [row, column, channel], channel fastest

__global__ void make_image(float *x) {
    int q = blockIdx.x * blockDim.x + threadIdx.x; // q = j*C + c
    int i = blockIdx.y;
    if (q >= ROW) return;
    int j = q / C, c = q % C;
    x[(size_t)i * ROW + q] = (float)((i * 37 + j * 11 + c * 71 + i * j) % 256);
}

__global__ void box3x3(const float *__restrict__ x, float *__restrict__ y) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (q >= ROW) return;
    int j = q / C;
    float s = 0.0f;
    for (int di = -1; di <= 1; di++) {
        int ii = i + di;
        for (int dj = -1; dj <= 1; dj++) {
            int jj = j + dj;
            if (ii >= 0 && ii < M && jj >= 0 && jj < N) s += x[(size_t)ii * ROW + q + dj * C];
        }
    }
    y[(size_t)i * ROW + q] = s * (1.0f / 9.0f);
}

int main() {
    const size_t n = (size_t)M * N * C;
    float *x, *y;
    CHECK(cudaMalloc(&x, sizeof(float) * n));
    CHECK(cudaMalloc(&y, sizeof(float) * n));
    const dim3 grid(ROW / 256, M), block(256);
    make_image<<<grid, block>>>(x);
    CHECK(cudaGetLastError());
    box3x3<<<grid, block>>>(x, y); // warm-up
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        box3x3<<<grid, block>>>(x, y);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        printf("rep: %.4f ms\n", ms);
    }

    std::vector<float> h(n);
    CHECK(cudaMemcpy(h.data(), y, sizeof(float) * n, cudaMemcpyDeviceToHost));
    double s = 0;
    for (size_t k = 0; k < n; k++) s += h[k];
    printf("checksum: %.9g\n", s);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return 0;
}
