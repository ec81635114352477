// Gaussian blur (sigma 2) of an 8192x8192 float image with a separable 9-tap filter and
// a temporary image, zero extension. CUDA reference for benches/cuda/gauss9/kernel.q
// (same weights, same summation order): one thread per pixel, the weights in constant
// memory, the overlapping reads of neighbouring threads left to the caches.
// Build: nvcc -O3 -arch=sm_90 -o gauss9 reference.cu
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

#define M 8192
#define N 8192
#define R 4
#define REPS 30

__constant__ float w[2 * R + 1];

__global__ void make_image(float *x) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (j >= N) return;
    x[(size_t)i * N + j] = (float)((i * 37 + j * 11 + i * j) % 256);
}

__global__ void blur_vertical(const float *__restrict__ x, float *__restrict__ t) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (j >= N) return;
    float s = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; k++) {
        int ii = i + k;
        s += w[k + R] * (ii >= 0 && ii < M ? x[(size_t)ii * N + j] : 0.0f);
    }
    t[(size_t)i * N + j] = s;
}

__global__ void blur_horizontal(const float *__restrict__ t, float *__restrict__ y) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (j >= N) return;
    const float *row = t + (size_t)i * N;
    float s = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; k++) {
        int jj = j + k;
        s += w[k + R] * (jj >= 0 && jj < N ? row[jj] : 0.0f);
    }
    y[(size_t)i * N + j] = s;
}

int main() {
    const size_t n = (size_t)M * N;
    float hw[2 * R + 1], wsum = 0.0f;
    const float sigma = 2.0f;
    for (int k = 0; k <= 2 * R; k++) {
        hw[k] = expf(-(float)((k - R) * (k - R)) / (2.0f * sigma * sigma));
        wsum += hw[k];
    }
    for (int k = 0; k <= 2 * R; k++) hw[k] /= wsum;
    CHECK(cudaMemcpyToSymbol(w, hw, sizeof(hw)));

    float *x, *t, *y;
    CHECK(cudaMalloc(&x, sizeof(float) * n));
    CHECK(cudaMalloc(&t, sizeof(float) * n));
    CHECK(cudaMalloc(&y, sizeof(float) * n));
    const dim3 grid(N / 256, M), block(256);
    make_image<<<grid, block>>>(x);
    CHECK(cudaGetLastError());
    blur_vertical<<<grid, block>>>(x, t); // warm-up
    blur_horizontal<<<grid, block>>>(t, y);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        blur_vertical<<<grid, block>>>(x, t);
        CHECK(cudaGetLastError());
        blur_horizontal<<<grid, block>>>(t, y);
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
