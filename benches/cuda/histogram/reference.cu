// 256-bin histogram of an 8192x8192 image of 8-bit intensities stored as floats.
// CUDA reference for benches/cuda/histogram/kernel.q, the same algorithm: 1024 blocks of
// 256 threads, each block counting eight rows into a shared-memory histogram with
// atomics (consecutive threads read consecutive columns) and adding it to the global
// histogram with 256 atomics. Build: nvcc -O3 -arch=sm_90 -o histogram reference.cu
#include <cstdio>
#include <cstdlib>
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
#define ROWS 8 // image rows per block
#define BINS 256
#define THREADS 256
#define REPS 30

__global__ void make_image(float *x) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (j >= N) return;
    x[(size_t)i * N + j] = (float)((i * 37 + j * 11 + i * j * 7) % 256);
}

__global__ void histogram(const float *__restrict__ im, unsigned *__restrict__ h) {
    __shared__ unsigned bins[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (int r = blockIdx.x * ROWS; r < (blockIdx.x + 1) * ROWS; r++) {
        const float *row = im + (size_t)r * N;
        for (int c = threadIdx.x; c < N; c += blockDim.x) atomicAdd(&bins[(int)row[c]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&h[b], bins[b]);
}

int main() {
    float *im;
    unsigned *h;
    CHECK(cudaMalloc(&im, sizeof(float) * M * N));
    CHECK(cudaMalloc(&h, sizeof(unsigned) * BINS));
    make_image<<<dim3(N / 256, M), 256>>>(im);
    CHECK(cudaGetLastError());
    CHECK(cudaMemset(h, 0, sizeof(unsigned) * BINS));
    histogram<<<M / ROWS, THREADS>>>(im, h); // warm-up
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        // Clearing the histogram is set-up, outside the timed region (as in kernel.q).
        CHECK(cudaMemsetAsync(h, 0, sizeof(unsigned) * BINS));
        CHECK(cudaEventRecord(t0));
        histogram<<<M / ROWS, THREADS>>>(im, h);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        printf("rep: %.4f ms\n", ms);
    }

    unsigned hh[BINS];
    CHECK(cudaMemcpy(hh, h, sizeof(hh), cudaMemcpyDeviceToHost));
    double s = 0; // as sum(h .* h) over a float histogram: squares in float
    for (int b = 0; b < BINS; b++) s += (float)hh[b] * (float)hh[b];
    printf("checksum: %.9g\n", s);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(im));
    CHECK(cudaFree(h));
    return 0;
}
