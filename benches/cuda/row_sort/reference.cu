// Sorts each row of an 8192x1024 float matrix. CUDA reference for
// benches/cuda/row_sort/kernel.q, the same algorithm: one block of 512 threads per row,
// a bitonic network in shared memory, each thread owning one compare-exchange of every
// stage. Build: nvcc -O3 -arch=sm_90 -o row_sort reference.cu
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
#define N 1024
#define HALF (N / 2)
#define REPS 30

__global__ void make_data(float *x) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (j >= N) return;
    // at most 2.03e9 for i < 8192, j < 1024: no 32-bit overflow
    int v = (i * i * 29 + j * j * 17 + i * j * 7 + i * 3 + j) % 65536;
    x[(size_t)i * N + j] = (float)v / 65536.0f;
}

__global__ void bitonic_rows(const float *__restrict__ x, float *__restrict__ y) {
    __shared__ float s[N];
    const int t = threadIdx.x;
    const float *in = x + (size_t)blockIdx.x * N;
    s[t] = in[t];
    s[t + HALF] = in[t + HALF];
    __syncthreads();
    for (int k = 2; k <= N; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int i = 2 * t - (t & (j - 1)); // the pair (i, i + j): a 0 bit inserted at j
            float a = s[i], b = s[i + j];
            if ((i & k) == 0) {
                s[i] = fminf(a, b);
                s[i + j] = fmaxf(a, b);
            } else {
                s[i] = fmaxf(a, b);
                s[i + j] = fminf(a, b);
            }
            __syncthreads();
        }
    }
    float *out = y + (size_t)blockIdx.x * N;
    out[t] = s[t];
    out[t + HALF] = s[t + HALF];
}

int main() {
    const size_t n = (size_t)M * N;
    float *x, *y;
    CHECK(cudaMalloc(&x, sizeof(float) * n));
    CHECK(cudaMalloc(&y, sizeof(float) * n));
    make_data<<<dim3(N / 256, M), 256>>>(x);
    CHECK(cudaGetLastError());
    bitonic_rows<<<M, HALF>>>(x, y); // warm-up
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        bitonic_rows<<<M, HALF>>>(x, y);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        printf("rep: %.4f ms\n", ms);
    }

    std::vector<float> h(n);
    CHECK(cudaMemcpy(h.data(), y, sizeof(float) * n, cudaMemcpyDeviceToHost));
    double s = 0; // as sum(y .* (0..N - 1)): products in float, the sum in double
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++) s += h[i * N + j] * (float)j;
    printf("checksum: %.9g\n", s);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return 0;
}
