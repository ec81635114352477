// Device-to-device copy bandwidth: the ceiling that `blazar bench --device cuda` measures
// first and compares every memory-bound workload with. Copies a 1 GiB buffer two ways,
// cudaMemcpyAsync and a float4 copy kernel, 30 times each after a warm-up, and prints
// the repetitions of the faster way (by median) as `rep:` lines, then `bytes: N`: the
// bytes read plus the bytes written by one repetition.
// Build: nvcc -O3 -arch=sm_90 -o copy reference.cu
#include <algorithm>
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

#define BYTES (1ull << 30)
#define REPS 30

__global__ void copy_kernel(const float4 *__restrict__ src, float4 *__restrict__ dst,
                            size_t n) {
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) dst[k] = src[k];
}

static void copy_memcpy(float4 *dst, const float4 *src) {
    CHECK(cudaMemcpyAsync(dst, src, BYTES, cudaMemcpyDeviceToDevice));
}

static void copy_launch(float4 *dst, const float4 *src) {
    const size_t n = BYTES / sizeof(float4);
    const unsigned threads = 256, blocks = (unsigned)((n + threads - 1) / threads);
    copy_kernel<<<blocks, threads>>>(src, dst, n);
    CHECK(cudaGetLastError());
}

// Times REPS copies (after one warm-up) and returns the milliseconds of each.
static std::vector<float> time_copies(void (*copy)(float4 *, const float4 *), float4 *dst,
                                      const float4 *src) {
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    copy(dst, src);
    CHECK(cudaDeviceSynchronize());
    std::vector<float> ms(REPS);
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        copy(dst, src);
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        CHECK(cudaEventElapsedTime(&ms[r], t0, t1));
    }
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    return ms;
}

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5f * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

int main() {
    float4 *src, *dst;
    CHECK(cudaMalloc(&src, BYTES));
    CHECK(cudaMalloc(&dst, BYTES));
    CHECK(cudaMemset(src, 1, BYTES));
    CHECK(cudaMemset(dst, 0, BYTES));
    std::vector<float> a = time_copies(copy_memcpy, dst, src);
    std::vector<float> b = time_copies(copy_launch, dst, src);
    const float ma = median(a), mb = median(b);
    const bool memcpy_wins = ma <= mb;
    for (float ms : memcpy_wins ? a : b) printf("rep: %.4f ms\n", ms);
    printf("method: %s (cudaMemcpyAsync %.4f ms, copy kernel %.4f ms)\n",
           memcpy_wins ? "cudaMemcpyAsync" : "copy kernel", ma, mb);
    printf("bytes: %llu\n", 2 * BYTES);
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    return 0;
}
