// Gamma correction of a 4096x4096x3 float image (values 0..255), out of place.
// CUDA reference for benches/cuda/gamma/kernel.q: same data, same formula, one thread
// per element over the flat array. Build: nvcc -O3 -arch=sm_90 -o gamma reference.cu
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

// x[i, j, c] = (i*37 + j*11 + c*71 + i*j) mod 256; one block row per image row.
__global__ void make_image(float *x) {
    int q = blockIdx.x * blockDim.x + threadIdx.x; // q = j*C + c
    int i = blockIdx.y;
    if (q >= ROW) return;
    int j = q / C, c = q % C;
    x[(size_t)i * ROW + q] = (float)((i * 37 + j * 11 + c * 71 + i * j) % 256);
}

__global__ void gamma_correct(const float *__restrict__ x, float *__restrict__ y, float g,
                              int n) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) y[k] = 255.0f * powf(x[k] * (1.0f / 255.0f), g);
}

int main() {
    const int n = M * N * C;
    float *x, *y;
    CHECK(cudaMalloc(&x, sizeof(float) * n));
    CHECK(cudaMalloc(&y, sizeof(float) * n));
    make_image<<<dim3(ROW / 256, M), 256>>>(x);
    CHECK(cudaGetLastError());
    const float g = 0.45f;
    const int threads = 256, blocks = (n + threads - 1) / threads;
    gamma_correct<<<blocks, threads>>>(x, y, g, n); // warm-up
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        gamma_correct<<<blocks, threads>>>(x, y, g, n);
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
    for (int k = 0; k < n; k++) s += h[k];
    printf("checksum: %.9g\n", s);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return 0;
}
