// Memory-bound experiments on the GPU (hand-written CUDA C, not a workload): what limits
// gamma, box3x3 and life. Build: nvcc -O3 -arch=sm_90 -o mb memory_bound.cu; results of
// two H100 runs in memory_bound.h100.txt (sessions 3 and 5; see benches/README.md).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CHECK(c) do { cudaError_t e_ = (c); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
#define M 4096
#define N 4096
#define C 3
#define ROW (N*C)
static const size_t NE = (size_t)M*N*C;

__global__ void copy1(const float* __restrict__ x, float* __restrict__ y, size_t n) { size_t k = (size_t)blockIdx.x*blockDim.x+threadIdx.x; if (k<n) y[k]=x[k]; }
__global__ void copy4(const float4* __restrict__ x, float4* __restrict__ y, size_t n) { size_t k = (size_t)blockIdx.x*blockDim.x+threadIdx.x; if (k<n) y[k]=x[k]; }
__global__ void gamma1(const float* __restrict__ x, float* __restrict__ y, float g, int n) { int k = blockIdx.x*blockDim.x+threadIdx.x; if (k<n) y[k]=255.0f*powf(x[k]*(1.0f/255.0f), g); }
__global__ void gamma1nr(const float* x, float* y, float g, int n) { int k = blockIdx.x*blockDim.x+threadIdx.x; if (k<n) y[k]=255.0f*powf(x[k]*(1.0f/255.0f), g); }
__global__ void gamma4(const float4* __restrict__ x, float4* __restrict__ y, float g, int n) { int k = blockIdx.x*blockDim.x+threadIdx.x; if (k<n) { float4 v=x[k]; v.x=255.0f*powf(v.x*(1.0f/255.0f),g); v.y=255.0f*powf(v.y*(1.0f/255.0f),g); v.z=255.0f*powf(v.z*(1.0f/255.0f),g); v.w=255.0f*powf(v.w*(1.0f/255.0f),g); y[k]=v; } }
// 4 elements per thread, strided by the block (coalesced scalar loads, more work in flight)
__global__ void gammaS4(const float* __restrict__ x, float* __restrict__ y, float g, int n) { int base = blockIdx.x*blockDim.x*4+threadIdx.x; float v[4];
  #pragma unroll
  for (int u=0;u<4;u++){int k=base+u*blockDim.x; v[u]= k<n? x[k]:0;}
  #pragma unroll
  for (int u=0;u<4;u++){int k=base+u*blockDim.x; if(k<n) y[k]=255.0f*powf(v[u]*(1.0f/255.0f),g);} }
__global__ void gammaFast(const float* __restrict__ x, float* __restrict__ y, float g, int n) { int k = blockIdx.x*blockDim.x+threadIdx.x; if (k<n) y[k]=255.0f*__powf(x[k]*(1.0f/255.0f), g); }
// compute only: reads a register value, stores only if impossible
__global__ void gammaCompute(const float* __restrict__ x, float* __restrict__ y, float g, int n) { int k = blockIdx.x*blockDim.x+threadIdx.x; if (k<n) { float v = (float)(k & 255); float r=255.0f*powf(v*(1.0f/255.0f), g); if (r < -1.0f) y[k]=r; } }
// 3-d block like Blazar's [1,64,3]: x=channel, y=column
__global__ void gamma3d(const float* __restrict__ x, float* __restrict__ y, float g) { int c=threadIdx.x; int j=blockIdx.y*64+threadIdx.y; int i=blockIdx.z; size_t k=((size_t)i*N+j)*C+c; y[k]=255.0f*powf(x[k]*(1.0f/255.0f), g); }

__global__ void box_ref(const float* __restrict__ x, float* __restrict__ y) {
  int q = blockIdx.x*blockDim.x+threadIdx.x; int i=blockIdx.y; if (q>=ROW) return; int j=q/C; float s=0;
  for (int di=-1;di<=1;di++){int ii=i+di; for(int dj=-1;dj<=1;dj++){int jj=j+dj; if(ii>=0&&ii<M&&jj>=0&&jj<N) s+=x[(size_t)ii*ROW+q+dj*C];}}
  y[(size_t)i*ROW+q]=s*(1.0f/9.0f); }
// R rows per thread: rows i0..i0+R-1, sliding column sums
template<int R> __global__ void box_rows(const float* __restrict__ x, float* __restrict__ y) {
  int q = blockIdx.x*blockDim.x+threadIdx.x; int i0=blockIdx.y*R; if (q>=ROW) return; int j=q/C;
  float h[R+2];
  #pragma unroll
  for (int r=0;r<R+2;r++){int ii=i0-1+r; float s=0; if(ii>=0&&ii<M){ const float* p=x+(size_t)ii*ROW+q; s=p[0]; if(j>0) s+=p[-C]; if(j<N-1) s+=p[C];} h[r]=s;}
  #pragma unroll
  for (int r=0;r<R;r++) y[(size_t)(i0+r)*ROW+q]=(h[r]+h[r+1]+h[r+2])*(1.0f/9.0f); }
#define LN 8192
__device__ __forceinline__ float cell(const float* a,int i,int j){ return (i>=0&&i<LN&&j>=0&&j<LN)? a[(size_t)i*LN+j]:0.0f; }
__global__ void life_ref(const float* __restrict__ a, float* __restrict__ b) {
  int j=blockIdx.x*blockDim.x+threadIdx.x; int i=blockIdx.y; if(j>=LN) return;
  float live=cell(a,i-1,j-1)+cell(a,i-1,j)+cell(a,i-1,j+1)+cell(a,i,j-1)+cell(a,i,j+1)+cell(a,i+1,j-1)+cell(a,i+1,j)+cell(a,i+1,j+1);
  float me=a[(size_t)i*LN+j]; b[(size_t)i*LN+j]=(live==3.0f||(live==2.0f&&me==1.0f))?1.0f:0.0f; }
template<int R> __global__ void life_rows(const float* __restrict__ a, float* __restrict__ b) {
  int j=blockIdx.x*blockDim.x+threadIdx.x; int i0=blockIdx.y*R; if(j>=LN) return;
  float h[R+2], m[R+2];
  #pragma unroll
  for(int r=0;r<R+2;r++){int ii=i0-1+r; float l=cell(a,ii,j-1), c=cell(a,ii,j), rr=cell(a,ii,j+1); h[r]=l+c+rr; m[r]=c;}
  #pragma unroll
  for(int r=0;r<R;r++){float live=h[r]+h[r+1]+h[r+2]-m[r+1]; float me=m[r+1]; b[(size_t)(i0+r)*LN+j]=(live==3.0f||(live==2.0f&&me==1.0f))?1.0f:0.0f;} }

template<class F> float timeit(F f) {
  cudaEvent_t t0,t1; CHECK(cudaEventCreate(&t0)); CHECK(cudaEventCreate(&t1));
  f(); CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<float> ms(30);
  for (int r=0;r<30;r++){ CHECK(cudaEventRecord(t0)); f(); CHECK(cudaEventRecord(t1)); CHECK(cudaEventSynchronize(t1)); CHECK(cudaEventElapsedTime(&ms[r],t0,t1)); }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end()); return ms[15];
}
static double copy_gbps;
static void row(const char* name, double bytes, float ms) { double g = bytes/ms/1e6; printf("%-22s %8.4f ms %8.1f GB/s %5.0f%%\n", name, ms, g, copy_gbps>0? 100*g/copy_gbps:0); }
int main() {
  size_t big = 1ull<<28; // 1 GiB of floats
  float *bx,*by; CHECK(cudaMalloc(&bx,big*4)); CHECK(cudaMalloc(&by,big*4)); CHECK(cudaMemset(bx,1,big*4));
  float ms = timeit([&]{ copy4<<<(big/4+255)/256,256>>>((float4*)bx,(float4*)by,big/4); });
  copy_gbps = 2.0*big*4/ms/1e6; row("copy4 1GiB", 2.0*big*4, ms);
  ms = timeit([&]{ CHECK(cudaMemcpyAsync(by,bx,big*4,cudaMemcpyDeviceToDevice)); }); row("memcpy 1GiB", 2.0*big*4, ms);
  ms = timeit([&]{ copy1<<<(big+255)/256,256>>>(bx,by,big); }); row("copy1 1GiB", 2.0*big*4, ms);
  CHECK(cudaFree(bx)); CHECK(cudaFree(by));
  float *x,*y; CHECK(cudaMalloc(&x,NE*4)); CHECK(cudaMalloc(&y,NE*4));
  std::vector<float> h(NE); for (size_t k=0;k<NE;k++) h[k]=(float)((k*2654435761u)%256); CHECK(cudaMemcpy(x,h.data(),NE*4,cudaMemcpyHostToDevice));
  double b2 = 2.0*NE*4; int n=(int)NE; float g=0.45f;
  ms = timeit([&]{ copy1<<<(NE+255)/256,256>>>(x,y,NE); }); row("copy1 201MB", b2, ms);
  ms = timeit([&]{ copy4<<<(NE/4+255)/256,256>>>((float4*)x,(float4*)y,NE/4); }); row("copy4 201MB", b2, ms);
  ms = timeit([&]{ CHECK(cudaMemcpyAsync(y,x,NE*4,cudaMemcpyDeviceToDevice)); }); row("memcpy 201MB", b2, ms);
  ms = timeit([&]{ gamma1<<<(n+255)/256,256>>>(x,y,g,n); }); row("gamma1 (ref)", b2, ms);
  ms = timeit([&]{ gamma1nr<<<(n+255)/256,256>>>(x,y,g,n); }); row("gamma1 no restrict", b2, ms);
  ms = timeit([&]{ gamma1<<<(n+127)/128,128>>>(x,y,g,n); }); row("gamma1 128thr", b2, ms);
  ms = timeit([&]{ gamma1<<<(n+511)/512,512>>>(x,y,g,n); }); row("gamma1 512thr", b2, ms);
  ms = timeit([&]{ gamma4<<<(n/4+255)/256,256>>>((float4*)x,(float4*)y,g,n/4); }); row("gamma float4", b2, ms);
  ms = timeit([&]{ gammaS4<<<(n+1023)/1024,256>>>(x,y,g,n); }); row("gamma 4/thread strided", b2, ms);
  ms = timeit([&]{ gammaFast<<<(n+255)/256,256>>>(x,y,g,n); }); row("gamma __powf", b2, ms);
  ms = timeit([&]{ gammaCompute<<<(n+255)/256,256>>>(x,y,g,n); }); row("gamma compute only", b2, ms);
  ms = timeit([&]{ gamma3d<<<dim3(1,N/64,M),dim3(3,64,1)>>>(x,y,g); }); row("gamma 3d block", b2, ms);
  ms = timeit([&]{ box_ref<<<dim3(ROW/256,M),256>>>(x,y); }); row("box ref", b2, ms);
  ms = timeit([&]{ box_rows<1><<<dim3(ROW/256,M),256>>>(x,y); }); row("box rows1", b2, ms);
  ms = timeit([&]{ box_rows<2><<<dim3(ROW/256,M/2),256>>>(x,y); }); row("box rows2", b2, ms);
  ms = timeit([&]{ box_rows<4><<<dim3(ROW/256,M/4),256>>>(x,y); }); row("box rows4", b2, ms);
  ms = timeit([&]{ box_rows<8><<<dim3(ROW/256,M/8),256>>>(x,y); }); row("box rows8", b2, ms);
  CHECK(cudaFree(x)); CHECK(cudaFree(y));
  float *a,*b; size_t LE=(size_t)LN*LN; CHECK(cudaMalloc(&a,LE*4)); CHECK(cudaMalloc(&b,LE*4));
  std::vector<float> ha(LE); for(size_t k=0;k<LE;k++) ha[k]=((k*2654435761u)>>7)%7<2; CHECK(cudaMemcpy(a,ha.data(),LE*4,cudaMemcpyHostToDevice));
  double lb=2.0*LE*4;
  ms = timeit([&]{ life_ref<<<dim3(LN/256,LN),256>>>(a,b); }); row("life ref", lb, ms);
  ms = timeit([&]{ life_rows<2><<<dim3(LN/256,LN/2),256>>>(a,b); }); row("life rows2", lb, ms);
  ms = timeit([&]{ life_rows<4><<<dim3(LN/256,LN/4),256>>>(a,b); }); row("life rows4", lb, ms);
  ms = timeit([&]{ life_rows<8><<<dim3(LN/256,LN/8),256>>>(a,b); }); row("life rows8", lb, ms);
  return 0;
}
