// Inclusive prefix sum of 2^26 floats. CUDA reference for
// benches/cuda/prefix_sum/kernel.q, the same reduce-then-scan algorithm in three
// kernels: 1024 blocks of 256 threads each sum a chunk of 65536 elements (tree in shared
// memory); one block of 1024 threads scans the chunk sums into exclusive offsets; each
// block then scans its chunk in tiles of 8 elements per thread (staged through shared
// memory; sequential scan per thread, Hillis-Steele over the threads' totals, each
// thread adding the sum before its elements), carrying the running total. Build: nvcc -O3 -arch=sm_90 -o prefix_sum reference.cu
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

#define LEN (1 << 26)
#define CHUNKS 1024
#define THREADS 256
#define CHUNK_LEN (LEN / CHUNKS)
#define REPS 30

// 0/1 data with about 15.5 million ones: every partial sum is exact in float.
__global__ void make_data(float *x) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < LEN) x[k] = (k * 7) % 13 < 3 ? 1.0f : 0.0f;
}

__global__ void chunk_sums(const float *__restrict__ x, float *__restrict__ sums) {
    __shared__ float part[THREADS];
    const int t = threadIdx.x, first = blockIdx.x * CHUNK_LEN;
    float acc = 0.0f;
    for (int k = first + t; k < first + CHUNK_LEN; k += THREADS) acc += x[k];
    part[t] = acc;
    __syncthreads();
    for (int step = THREADS / 2; step > 0; step >>= 1) {
        if (t < step) part[t] += part[t + step];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = part[0];
}

// Inclusive scan of s[0..n) in place, one element per thread (Hillis-Steele).
__device__ __forceinline__ void block_scan(float *s, int t, int n) {
    for (int d = 1; d < n; d <<= 1) {
        float v = t >= d ? s[t - d] : 0.0f;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
}

__global__ void chunk_offsets(const float *__restrict__ sums, float *__restrict__ offsets) {
    __shared__ float s[CHUNKS];
    const int t = threadIdx.x;
    s[t] = sums[t];
    __syncthreads();
    block_scan(s, t, CHUNKS);
    offsets[t] = s[t] - sums[t];
}

// Element q of a tile lives at q + q/32 in shared memory, so that the 32 threads of a
// warp reading their PER consecutive elements hit different banks. THREADS is a
// multiple of 32, so element j * THREADS + t lives at j * STRIDE + t + t/32.
#define PER 8
#define TILE (PER * THREADS)
#define STRIDE (THREADS + THREADS / 32)

__global__ void chunk_scan(const float *__restrict__ x, float *__restrict__ y,
                           const float *__restrict__ offsets) {
    __shared__ float s[TILE + TILE / 32];
    __shared__ float tot[THREADS];
    const int t = threadIdx.x, first = blockIdx.x * CHUNK_LEN;
    const int mine = PER * t + (t >> 2), at = t + (t >> 5);
    float carry = offsets[blockIdx.x];
    for (int tile = first; tile < first + CHUNK_LEN; tile += TILE) {
#pragma unroll
        for (int j = 0; j < PER; j++) s[j * STRIDE + at] = x[tile + j * THREADS + t];
        __syncthreads();
        float acc = 0.0f;
#pragma unroll
        for (int i = 0; i < PER; i++) {
            acc += s[mine + i];
            s[mine + i] = acc;
        }
        tot[t] = acc;
        __syncthreads();
        block_scan(tot, t, THREADS);
        const float before = carry + (t > 0 ? tot[t - 1] : 0.0f);
#pragma unroll
        for (int i = 0; i < PER; i++) s[mine + i] = before + s[mine + i];
        carry += tot[THREADS - 1];
        __syncthreads();
#pragma unroll
        for (int j = 0; j < PER; j++) y[tile + j * THREADS + t] = s[j * STRIDE + at];
        __syncthreads();
    }
}

static void prefix_sum(const float *x, float *y, float *sums, float *offsets) {
    chunk_sums<<<CHUNKS, THREADS>>>(x, sums);
    CHECK(cudaGetLastError());
    chunk_offsets<<<1, CHUNKS>>>(sums, offsets);
    CHECK(cudaGetLastError());
    chunk_scan<<<CHUNKS, THREADS>>>(x, y, offsets);
    CHECK(cudaGetLastError());
}

int main() {
    float *x, *y, *sums, *offsets;
    CHECK(cudaMalloc(&x, sizeof(float) * LEN));
    CHECK(cudaMalloc(&y, sizeof(float) * LEN));
    CHECK(cudaMalloc(&sums, sizeof(float) * CHUNKS));
    CHECK(cudaMalloc(&offsets, sizeof(float) * CHUNKS));
    make_data<<<LEN / 256, 256>>>(x);
    CHECK(cudaGetLastError());
    prefix_sum(x, y, sums, offsets); // warm-up
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        prefix_sum(x, y, sums, offsets);
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        printf("rep: %.4f ms\n", ms);
    }

    std::vector<float> h(LEN);
    CHECK(cudaMemcpy(h.data(), y, sizeof(float) * LEN, cudaMemcpyDeviceToHost));
    double s = 0;
    for (int k = 0; k < LEN; k++) s += h[k];
    printf("checksum: %.9g\n", s);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(sums));
    CHECK(cudaFree(offsets));
    return 0;
}
