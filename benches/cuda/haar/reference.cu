// One level of the forward 2-D Haar transform (unnormalised) of a 4096x4096x3 float
// image: horizontal pass into a temporary, then vertical pass, one thread per pair of
// samples. CUDA reference for benches/cuda/haar/kernel.q.
// Build: nvcc -O3 -arch=sm_90 -o haar reference.cu
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

#define M 4096
#define N 4096
#define C 3
#define REPS 30
#define ROW (N * C)  // floats per image row: [row, column, channel], channel fastest
#define HALF (ROW / 2) // floats in half a row

__global__ void make_image(float *x) {
    int q = blockIdx.x * blockDim.x + threadIdx.x; // q = j*C + c
    int i = blockIdx.y;
    if (q >= ROW) return;
    int j = q / C, c = q % C;
    x[(size_t)i * ROW + q] = (float)((i * 37 + j * 11 + c * 71 + i * j) % 256);
}

// Threads cover [M, N/2, C]: q = j*C + c with j < N/2. Averages to the left half,
// differences to the right half of the same row.
__global__ void haar_horizontal(const float *__restrict__ x, float *__restrict__ t) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (q >= HALF) return;
    int j = q / C, c = q % C;
    const float *row = x + (size_t)i * ROW;
    float a = row[(2 * j) * C + c], b = row[(2 * j + 1) * C + c];
    t[(size_t)i * ROW + q] = 0.5f * (a + b);
    t[(size_t)i * ROW + HALF + q] = a - b;
}

// Threads cover [M/2, N, C]. Averages to the top half, differences to the bottom half.
__global__ void haar_vertical(const float *__restrict__ t, float *__restrict__ y) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (q >= ROW) return;
    float a = t[(size_t)(2 * i) * ROW + q], b = t[(size_t)(2 * i + 1) * ROW + q];
    y[(size_t)i * ROW + q] = 0.5f * (a + b);
    y[(size_t)(i + M / 2) * ROW + q] = a - b;
}

static void haar_level(const float *x, float *t, float *y) {
    haar_horizontal<<<dim3(HALF / 256, M), 256>>>(x, t);
    CHECK(cudaGetLastError());
    haar_vertical<<<dim3(ROW / 256, M / 2), 256>>>(t, y);
    CHECK(cudaGetLastError());
}

int main() {
    const size_t n = (size_t)M * N * C;
    float *x, *t, *y;
    CHECK(cudaMalloc(&x, sizeof(float) * n));
    CHECK(cudaMalloc(&t, sizeof(float) * n));
    CHECK(cudaMalloc(&y, sizeof(float) * n));
    make_image<<<dim3(ROW / 256, M), 256>>>(x);
    CHECK(cudaGetLastError());
    haar_level(x, t, y); // warm-up
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        haar_level(x, t, y);
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        printf("rep: %.4f ms\n", ms);
    }

    std::vector<float> h(n);
    CHECK(cudaMemcpy(h.data(), y, sizeof(float) * n, cudaMemcpyDeviceToHost));
    double s = 0, a = 0;
    for (size_t k = 0; k < n; k++) {
        s += h[k];
        a += fabs(h[k]);
    }
    printf("checksum: %.9g\n", s + 3 * a);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(x));
    CHECK(cudaFree(t));
    CHECK(cudaFree(y));
    return 0;
}
