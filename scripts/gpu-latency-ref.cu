// The CUDA C twin of scripts/gpu-latency.sh: `s = s + sum(x)` over a device array of
// N floats (x[i] = i mod 7) in a host loop, one reduction launch and one scalar read
// back per iteration, written as a careful CUDA C programmer writes it: one stream
// (the legacy default stream, as Blazar's), a reduction kernel of Blazar's shape (256
// threads a block, 4 elements a thread, warp shuffles, one atomicAdd per block), the
// accumulators in a ring of zeroed slots (one memset when the ring wraps), and the
// read-back through page-locked host memory (cudaMemcpyAsync, then a stream sync).
//
// It prints, per iteration:
//   launch host us:   the host time of the launch call alone (back-to-back launches)
//   kernel device us: the kernel on the device (CUDA events around 1000 launches)
//   loop us:          launch + read-back + sync, the whole iteration of the host loop
//
// Build and run on the GPU machine (scripts/gpu-latency.sh does both when nvcc exists):
//   nvcc -O3 -arch=sm_90 -o /tmp/gpu-latency-ref scripts/gpu-latency-ref.cu
//   /tmp/gpu-latency-ref [N]
#include <chrono>
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

static const int THREADS = 256;
static const int PER_THREAD = 4;
static const int RING = 64;

__global__ void fill(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = (float)(i % 7);
}

// Each thread adds PER_THREAD elements, one block row apart (coalesced), then the
// block reduces with shuffles and adds its total to *out.
__global__ void __launch_bounds__(THREADS) sum_kernel(const float *__restrict__ x, int n,
                                                       float *out) {
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < PER_THREAD; r++) {
        int i = (blockIdx.x * PER_THREAD + r) * THREADS + threadIdx.x;
        if (i < n) acc += x[i];
    }
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    __shared__ float part[THREADS / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) part[warp] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int k = 1; k < THREADS / 32; k++) acc += part[k];
        atomicAdd(out, acc);
    }
}

static double now_us() {
    using namespace std::chrono;
    return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    const int iters = 10000;
    const int blocks = (n + THREADS * PER_THREAD - 1) / (THREADS * PER_THREAD);
    float *x, *slots, *host;
    CHECK(cudaMalloc(&x, sizeof(float) * n));
    CHECK(cudaMalloc(&slots, sizeof(float) * RING));
    CHECK(cudaMemset(slots, 0, sizeof(float) * RING));
    CHECK(cudaHostAlloc(&host, sizeof(float), cudaHostAllocDefault));
    fill<<<(n + 255) / 256, 256>>>(x, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    // The host loop of the program: launch, read the scalar back, add it.
    double s = 0;
    int at = 0;
    auto iteration = [&]() {
        sum_kernel<<<blocks, THREADS>>>(x, n, slots + at);
        CHECK(cudaMemcpyAsync(host, slots + at, sizeof(float), cudaMemcpyDeviceToHost, 0));
        CHECK(cudaStreamSynchronize(0));
        s += *host;
        if (++at == RING) {
            at = 0;
            CHECK(cudaMemsetAsync(slots, 0, sizeof(float) * RING, 0));
        }
    };
    for (int k = 0; k < 100; k++) iteration(); // warm-up
    double t0 = now_us();
    for (int k = 0; k < iters; k++) iteration();
    double loop = (now_us() - t0) / iters;

    // The launch call alone: launches issued back to back (into a throwaway slot),
    // each call timed on the host; the queue is drained every 256 launches so that the
    // driver's queue never fills (a full queue makes the call wait).
    double launch = 0;
    for (int k = 0; k < iters; k++) {
        double a = now_us();
        sum_kernel<<<blocks, THREADS>>>(x, n, slots);
        launch += now_us() - a;
        if (k % 256 == 255) CHECK(cudaStreamSynchronize(0));
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    launch /= iters;

    // The kernel on the device.
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventRecord(e0));
    for (int k = 0; k < 1000; k++) sum_kernel<<<blocks, THREADS>>>(x, n, slots);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));

    printf("cuda-c: s = sum(x), %d elements, %d blocks of %d threads\n", n, blocks, THREADS);
    printf("cuda-c: launch host us: %.2f\n", launch);
    printf("cuda-c: kernel device us: %.2f\n", ms * 1000.0 / 1000);
    printf("cuda-c: loop us: %.2f (launch + read-back + sync per iteration)\n", loop);
    printf("cuda-c: check: %s\n", s > 0 ? "ok" : "BAD");
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    CHECK(cudaFreeHost(host));
    CHECK(cudaFree(slots));
    CHECK(cudaFree(x));
    return 0;
}
