// A single-precision power through a short f64 evaluation (logarithm by the atanh
// series, exponential by its Taylor series) against CUDA's powf: agreement with the
// host's `(float)pow((double)a, (double)c)` over every positive finite float, and the
// time of the gamma-threshold-sum pipeline of benches/arrays/pipeline3.
// Build: nvcc -O3 -arch=sm_90 -Xcompiler -fopenmp -o pw pow_f64.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CHECK(c) do { cudaError_t e_ = (c); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

#include "pow_f64.h"

__global__ void eval(float c, uint32_t base, float* out_fast, float* out_powf, uint32_t n, int which) {
  uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; if (k >= n) return;
  float a = __uint_as_float(base + k);
  if (which == 0) out_fast[k] = bz_powf_f64(a, c); else out_powf[k] = powf(a, c);
}
static int ulps(float a, float b) {
  if (a == b) return 0; if (std::isnan(a) && std::isnan(b)) return 0;
  if (std::isnan(a) || std::isnan(b)) return 1 << 30;
  int32_t ia, ib; memcpy(&ia, &a, 4); memcpy(&ib, &b, 4);
  if (ia < 0) ia = INT32_MIN - ia; if (ib < 0) ib = INT32_MIN - ib;
  long d = (long)ia - (long)ib; return (int)std::min<long>(labs(d), 1 << 30);
}

__global__ void pipe_powf(const float* __restrict__ x, size_t n, double* out) {
  double acc = 0; float s = 0;
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x) {
    float y = 255.0f * powf(x[k] / 255.0f, 0.45f); s += (y > 128.0f) ? y : 0.0f; }
  acc = s; for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(~0u, acc, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, acc);
}
__global__ void pipe_f64(const float* __restrict__ x, size_t n, double* out) {
  double acc = 0; float s = 0;
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x) {
    float y = 255.0f * bz_powf_f64(x[k] / 255.0f, 0.45f); s += (y > 128.0f) ? y : 0.0f; }
  acc = s; for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(~0u, acc, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, acc);
}
__global__ void gamma_powf(const float* __restrict__ x, float* __restrict__ y, float g, size_t n) { size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; if (k < n) y[k] = 255.0f * powf(x[k] / 255.0f, g); }
__global__ void gamma_f64(const float* __restrict__ x, float* __restrict__ y, float g, size_t n) { size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; if (k < n) y[k] = 255.0f * bz_powf_f64(x[k] / 255.0f, g); }
template<class F> float timeit(F f) {
  cudaEvent_t t0,t1; CHECK(cudaEventCreate(&t0)); CHECK(cudaEventCreate(&t1));
  f(); CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<float> ms(30);
  for (int r=0;r<30;r++){ CHECK(cudaEventRecord(t0)); f(); CHECK(cudaEventRecord(t1)); CHECK(cudaEventSynchronize(t1)); CHECK(cudaEventElapsedTime(&ms[r],t0,t1)); }
  std::sort(ms.begin(), ms.end()); return ms[15];
}

int main(int argc, char** argv) {
  const uint32_t chunk = 1u << 26;
  float* dfast; float* dpowf; CHECK(cudaMalloc(&dfast, chunk * 4)); CHECK(cudaMalloc(&dpowf, chunk * 4));
  std::vector<float> hf(chunk), hp(chunk);
  float exps[] = {0.45f, 2.2f, 1.0f / 2.4f, 3.0f, -1.5f, 0.5f};
  int nexp = argc > 1 ? atoi(argv[1]) : 6;
  for (int ei = 0; ei < nexp; ei++) {
    float c = exps[ei];
    long hist_f[4] = {0}, hist_p[4] = {0}; int maxf = 0, maxp = 0; 
    for (uint64_t base = 0; base < 0x7f800000u; base += chunk) {
      uint32_t n = (uint32_t)std::min<uint64_t>(chunk, 0x7f800000u - base);
      eval<<<(n + 255) / 256, 256>>>(c, (uint32_t)base, dfast, dpowf, n, 0);
      eval<<<(n + 255) / 256, 256>>>(c, (uint32_t)base, dfast, dpowf, n, 1);
      CHECK(cudaMemcpy(hf.data(), dfast, n * 4, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(hp.data(), dpowf, n * 4, cudaMemcpyDeviceToHost));
      #pragma omp parallel for reduction(+:hist_f[:4], hist_p[:4]) reduction(max:maxf, maxp)
      for (uint32_t k = 0; k < n; k++) {
        uint32_t bits = (uint32_t)base + k; float a; memcpy(&a, &bits, 4);
        float ref = (float)pow((double)a, (double)c);
        int uf = ulps(hf[k], ref), up = ulps(hp[k], ref);
        hist_f[std::min(uf, 3)]++; hist_p[std::min(up, 3)]++; maxf = std::max(maxf, uf); maxp = std::max(maxp, up);
      }
    }
    
    printf("c=%-10.7g f64 path: exact %ld, 1 ulp %ld, 2 ulp %ld, more %ld (max %d) | powf: exact %ld, 1 ulp %ld, 2 ulp %ld, more %ld (max %d)\n",
      c, hist_f[0], hist_f[1], hist_f[2], hist_f[3], maxf, hist_p[0], hist_p[1], hist_p[2], hist_p[3], maxp);
    fflush(stdout);
  }
  size_t n = (size_t)4096 * 4096 * 3; float* x; double* out; CHECK(cudaMalloc(&x, n * 4)); CHECK(cudaMalloc(&out, 8));
  { std::vector<float> h(n); for (size_t k = 0; k < n; k++) { size_t i = k / (4096 * 3), j = (k / 3) % 4096, ch = k % 3; h[k] = (float)((37 * i + 11 * j + 71 * ch + i * j) % 256); }
    CHECK(cudaMemcpy(x, h.data(), n * 4, cudaMemcpyHostToDevice)); }
  float* y; CHECK(cudaMalloc(&y, n * 4));
  { float a = timeit([&]{ gamma_powf<<<(n + 255) / 256, 256>>>(x, y, 0.45f, n); });
    float b = timeit([&]{ gamma_f64<<<(n + 255) / 256, 256>>>(x, y, 0.45f, n); });
    printf("gamma one per thread: powf %.4f ms, f64 path %.4f ms\n", a, b); }
  for (int g : {1056, 2112, 4224}) {
    float a = timeit([&]{ pipe_powf<<<g, 256>>>(x, n, out); });
    float b = timeit([&]{ pipe_f64<<<g, 256>>>(x, n, out); });
    printf("pipeline3 grid %d: powf %.4f ms, f64 path %.4f ms\n", g, a, b);
  }
  return 0;
}
