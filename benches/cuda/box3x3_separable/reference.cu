// 3x3 mean filter of a 4096x4096x3 float image, separable with a temporary image,
// zero extension. CUDA reference for benches/cuda/box3x3_separable/kernel.q: a vertical
// pass, then a horizontal pass, one thread per element, one image row per grid row.
// Build: nvcc -O3 -arch=sm_90 -o box3x3_separable reference.cu
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

__global__ void sum_vertical(const float *__restrict__ x, float *__restrict__ t) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (q >= ROW) return;
    size_t k = (size_t)i * ROW + q;
    float up = i > 0 ? x[k - ROW] : 0.0f;
    float down = i < M - 1 ? x[k + ROW] : 0.0f;
    t[k] = up + x[k] + down;
}

__global__ void mean_horizontal(const float *__restrict__ t, float *__restrict__ y) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (q >= ROW) return;
    int j = q / C;
    size_t k = (size_t)i * ROW + q;
    float left = j > 0 ? t[k - C] : 0.0f;
    float right = j < N - 1 ? t[k + C] : 0.0f;
    y[k] = (left + t[k] + right) * (1.0f / 9.0f);
}

int main() {
    const size_t n = (size_t)M * N * C;
    float *x, *t, *y;
    CHECK(cudaMalloc(&x, sizeof(float) * n));
    CHECK(cudaMalloc(&t, sizeof(float) * n));
    CHECK(cudaMalloc(&y, sizeof(float) * n));
    const dim3 grid(ROW / 256, M), block(256);
    make_image<<<grid, block>>>(x);
    CHECK(cudaGetLastError());
    sum_vertical<<<grid, block>>>(x, t); // warm-up
    mean_horizontal<<<grid, block>>>(t, y);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        sum_vertical<<<grid, block>>>(x, t);
        CHECK(cudaGetLastError());
        mean_horizontal<<<grid, block>>>(t, y);
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
    CHECK(cudaFree(t));
    CHECK(cudaFree(y));
    return 0;
}
