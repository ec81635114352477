// Sum of 2^26 floats. CUDA reference for benches/cuda/reduce_sum/kernel.q, the same
// algorithm: 1024 blocks of 256 threads, strided per-thread accumulation, a tree in
// shared memory, one atomicAdd per block into a device total. As the Quasar program
// gets its total back as a host value in every repetition, the timed region here also
// clears the total and copies it back to the host (4 bytes).
// Build: nvcc -O3 -arch=sm_90 -o reduce_sum reference.cu
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

#define LEN (1 << 26)
#define BLOCKS 1024
#define THREADS 256
#define REPS 30

__global__ void make_data(float *x) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < LEN) x[k] = (float)((k * 7) % 1000) / 1000.0f;
}

__global__ void sum_kernel(const float *__restrict__ x, int n, float *total) {
    __shared__ float part[THREADS];
    int stride = gridDim.x * blockDim.x;
    float acc = 0.0f;
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) acc += x[k];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int step = blockDim.x / 2; step > 0; step >>= 1) {
        if (threadIdx.x < step) part[threadIdx.x] += part[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(total, part[0]);
}

// Clears the total, sums, and copies the total into pinned host memory (asynchronous).
static void sum(const float *x, float *d_total, float *h_total) {
    CHECK(cudaMemsetAsync(d_total, 0, sizeof(float)));
    sum_kernel<<<BLOCKS, THREADS>>>(x, LEN, d_total);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_total, d_total, sizeof(float), cudaMemcpyDeviceToHost));
}

int main() {
    float *x, *d_total, *h_total;
    CHECK(cudaMalloc(&x, sizeof(float) * LEN));
    CHECK(cudaMalloc(&d_total, sizeof(float)));
    CHECK(cudaMallocHost(&h_total, sizeof(float)));
    make_data<<<LEN / 256, 256>>>(x);
    CHECK(cudaGetLastError());
    sum(x, d_total, h_total); // warm-up
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        sum(x, d_total, h_total);
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        printf("rep: %.4f ms\n", ms);
    }
    printf("checksum: %.9g\n", (double)*h_total);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(x));
    CHECK(cudaFree(d_total));
    CHECK(cudaFreeHost(h_total));
    return 0;
}
