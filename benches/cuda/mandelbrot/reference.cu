// Mandelbrot set on a 4096x4096 grid covering [-2, 1] x [-1.5, 1.5], at most 256
// iterations, single precision. CUDA reference for benches/cuda/mandelbrot/kernel.q:
// one thread per pixel, complex arithmetic written out on real and imaginary parts;
// |z| is hypotf, which is how Blazar evaluates abs of a complex number.
// Build: nvcc -O3 -arch=sm_90 -o mandelbrot reference.cu
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
#define MAX_IT 256
#define REPS 30

__global__ void mandelbrot(float *im, float s, float tr, float ti, int max_it) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N) return;
    float p0 = (float)i / (float)M - 0.5f, p1 = (float)j / (float)N - 0.5f;
    float cr = tr + s * p1, ci = ti + s * p0;
    float zr = 0.0f, zi = 0.0f;
    int n = 0;
    while (n < max_it && hypotf(zr, zi) <= 2.0f) {
        float re = zr * zr - zi * zi + cr;
        zi = zr * zi + zi * zr + ci;
        zr = re;
        n++;
    }
    im[(size_t)i * N + j] = (float)n;
}

int main() {
    const size_t n = (size_t)M * N;
    float *im;
    CHECK(cudaMalloc(&im, sizeof(float) * n));
    const dim3 block(32, 8), grid(N / 32, M / 8);
    mandelbrot<<<grid, block>>>(im, 3.0f, -0.5f, 0.0f, MAX_IT); // warm-up
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    for (int r = 0; r < REPS; r++) {
        CHECK(cudaEventRecord(t0));
        mandelbrot<<<grid, block>>>(im, 3.0f, -0.5f, 0.0f, MAX_IT);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        printf("rep: %.4f ms\n", ms);
    }

    std::vector<float> h(n);
    CHECK(cudaMemcpy(h.data(), im, sizeof(float) * n, cudaMemcpyDeviceToHost));
    double s = 0;
    for (size_t k = 0; k < n; k++) s += h[k];
    printf("checksum: %.9g\n", s);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(im));
    return 0;
}
