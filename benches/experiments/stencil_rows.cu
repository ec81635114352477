// Stencil experiments on the GPU (hand-written CUDA C, not a workload): how close the
// three stencil workloads (box3x3 4096x4096x3, gauss9's horizontal and vertical passes
// 8192x8192, life 8192x8192) come to the copy bandwidth when each thread runs R rows
// (sliding sums in registers, Blazar's coarsening) and, along the row, 1 scalar or 4
// consecutive elements read as aligned float4 (three vector loads per row for four
// outputs). Build: nvcc -O3 -arch=sm_90 -o sr stencil_rows.cu
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CHECK(c) do { cudaError_t e_ = (c); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

__global__ void copy4(const float4* __restrict__ x, float4* __restrict__ y, size_t n) { size_t k = (size_t)blockIdx.x*blockDim.x+threadIdx.x; if (k<n) y[k]=x[k]; }

// ---- box3x3 on M x N x C (row of W = N*C floats), zero extension
#define BM 4096
#define BN 4096
#define BC 3
#define BW (BN*BC)
template<int R> __global__ void box_rows(const float* __restrict__ x, float* __restrict__ y) {
  int q = blockIdx.x*blockDim.x+threadIdx.x; int i0=blockIdx.y*R; int j=q/BC;
  float h[R+2];
  #pragma unroll
  for (int r=0;r<R+2;r++){int ii=i0-1+r; float s=0; if(ii>=0&&ii<BM){ const float* p=x+(size_t)ii*BW+q; s=p[0]; if(j>0) s+=p[-BC]; if(j<BN-1) s+=p[BC];} h[r]=s;}
  #pragma unroll
  for (int r=0;r<R;r++) y[(size_t)(i0+r)*BW+q]=(h[r]+h[r+1]+h[r+2])*(1.0f/9.0f); }
__device__ __forceinline__ float4 ld4(const float* p, int q, int w) { return (q>=0 && q<w)? *(const float4*)(p+q) : make_float4(0,0,0,0); }
template<int R> __global__ void box_v4(const float* __restrict__ x, float* __restrict__ y) {
  int q = (blockIdx.x*blockDim.x+threadIdx.x)*4; int i0=blockIdx.y*R;
  float4 h[R+2];
  #pragma unroll
  for (int r=0;r<R+2;r++){int ii=i0-1+r; float4 s=make_float4(0,0,0,0);
    if(ii>=0&&ii<BM){ const float* p=x+(size_t)ii*BW; float4 a=ld4(p,q-4,BW), b=ld4(p,q,BW), c=ld4(p,q+4,BW);
      s.x=a.y+b.x+b.w; s.y=a.z+b.y+c.x; s.z=a.w+b.z+c.y; s.w=b.x+b.w+c.z; }
    h[r]=s;}
  #pragma unroll
  for (int r=0;r<R;r++){ float4 o; o.x=(h[r].x+h[r+1].x+h[r+2].x)*(1.0f/9.0f); o.y=(h[r].y+h[r+1].y+h[r+2].y)*(1.0f/9.0f);
    o.z=(h[r].z+h[r+1].z+h[r+2].z)*(1.0f/9.0f); o.w=(h[r].w+h[r+1].w+h[r+2].w)*(1.0f/9.0f); *(float4*)(y+(size_t)(i0+r)*BW+q)=o; } }

// ---- gauss9 on LN x LN
#define LN 8192
__constant__ float cw[9];
template<int R> __global__ void gv_rows(const float* __restrict__ x, float* __restrict__ t) {
  int j=blockIdx.x*blockDim.x+threadIdx.x; int i0=blockIdx.y*R; float v[R+8];
  #pragma unroll
  for(int r=0;r<R+8;r++){int ii=i0-4+r; v[r]=(ii>=0&&ii<LN)? x[(size_t)ii*LN+j]:0.0f;}
  #pragma unroll
  for(int r=0;r<R;r++){float s=0;
    #pragma unroll
    for(int k=0;k<9;k++) s+=cw[k]*v[r+k]; t[(size_t)(i0+r)*LN+j]=s;} }
template<int R> __global__ void gh_rows(const float* __restrict__ t, float* __restrict__ y) {
  int j=blockIdx.x*blockDim.x+threadIdx.x; int i0=blockIdx.y*R;
  #pragma unroll
  for(int r=0;r<R;r++){ const float* p=t+(size_t)(i0+r)*LN; float s=0;
    #pragma unroll
    for(int k=-4;k<=4;k++){int jj=j+k; s+=cw[k+4]*((jj>=0&&jj<LN)? p[jj]:0.0f);} y[(size_t)(i0+r)*LN+j]=s;} }
template<int R> __global__ void gh_v4(const float* __restrict__ t, float* __restrict__ y) {
  int q=(blockIdx.x*blockDim.x+threadIdx.x)*4; int i0=blockIdx.y*R;
  #pragma unroll
  for(int r=0;r<R;r++){ const float* p=t+(size_t)(i0+r)*LN; float4 a=ld4(p,q-4,LN), b=ld4(p,q,LN), c=ld4(p,q+4,LN);
    float v[12]={a.x,a.y,a.z,a.w,b.x,b.y,b.z,b.w,c.x,c.y,c.z,c.w}; float o[4];
    #pragma unroll
    for(int u=0;u<4;u++){float s=0;
      #pragma unroll
      for(int k=0;k<9;k++) s+=cw[k]*v[u+k]; o[u]=s;}
    *(float4*)(y+(size_t)(i0+r)*LN+q)=make_float4(o[0],o[1],o[2],o[3]); } }

// ---- life on LN x LN
__device__ __forceinline__ float cell(const float* a,int i,int j){ return (i>=0&&i<LN&&j>=0&&j<LN)? a[(size_t)i*LN+j]:0.0f; }
template<int R> __global__ void life_rows(const float* __restrict__ a, float* __restrict__ b) {
  int j=blockIdx.x*blockDim.x+threadIdx.x; int i0=blockIdx.y*R;
  float h[R+2], m[R+2];
  #pragma unroll
  for(int r=0;r<R+2;r++){int ii=i0-1+r; float l=cell(a,ii,j-1), c=cell(a,ii,j), rr=cell(a,ii,j+1); h[r]=l+c+rr; m[r]=c;}
  #pragma unroll
  for(int r=0;r<R;r++){float live=h[r]+h[r+1]+h[r+2]-m[r+1]; float me=m[r+1]; b[(size_t)(i0+r)*LN+j]=(live==3.0f||(live==2.0f&&me==1.0f))?1.0f:0.0f;} }
template<int R> __global__ void life_v4(const float* __restrict__ a, float* __restrict__ b) {
  int q=(blockIdx.x*blockDim.x+threadIdx.x)*4; int i0=blockIdx.y*R;
  float h[R+2][4], m[R+2][4];
  #pragma unroll
  for(int r=0;r<R+2;r++){int ii=i0-1+r; float4 A=make_float4(0,0,0,0),B=A,C=A;
    if(ii>=0&&ii<LN){const float* p=a+(size_t)ii*LN; A=ld4(p,q-4,LN); B=ld4(p,q,LN); C=ld4(p,q+4,LN);}
    float v[6]={A.w,B.x,B.y,B.z,B.w,C.x};
    #pragma unroll
    for(int u=0;u<4;u++){h[r][u]=v[u]+v[u+1]+v[u+2]; m[r][u]=v[u+1];}}
  #pragma unroll
  for(int r=0;r<R;r++){float o[4];
    #pragma unroll
    for(int u=0;u<4;u++){float live=h[r][u]+h[r+1][u]+h[r+2][u]-m[r+1][u]; float me=m[r+1][u]; o[u]=(live==3.0f||(live==2.0f&&me==1.0f))?1.0f:0.0f;}
    *(float4*)(b+(size_t)(i0+r)*LN+q)=make_float4(o[0],o[1],o[2],o[3]);} }

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
static double sum(const float* d, size_t n){ std::vector<float> h(n); CHECK(cudaMemcpy(h.data(),d,n*4,cudaMemcpyDeviceToHost)); double s=0; for(size_t k=0;k<n;k++) s+=h[k]*(double)(1+k%7); return s; }
int main() {
  size_t big = 1ull<<28;
  float *bx,*by; CHECK(cudaMalloc(&bx,big*4)); CHECK(cudaMalloc(&by,big*4)); CHECK(cudaMemset(bx,1,big*4));
  float ms = timeit([&]{ copy4<<<(big/4+255)/256,256>>>((float4*)bx,(float4*)by,big/4); });
  copy_gbps = 2.0*big*4/ms/1e6; row("copy4 1GiB", 2.0*big*4, ms);
  CHECK(cudaFree(bx)); CHECK(cudaFree(by));
  size_t NE=(size_t)BM*BW; float *x,*y; CHECK(cudaMalloc(&x,NE*4)); CHECK(cudaMalloc(&y,NE*4));
  { std::vector<float> h(NE); for (size_t k=0;k<NE;k++) h[k]=(float)((k*2654435761u)%256); CHECK(cudaMemcpy(x,h.data(),NE*4,cudaMemcpyHostToDevice)); }
  double b2=2.0*NE*4;
  ms = timeit([&]{ box_rows<1><<<dim3(BW/256,BM),256>>>(x,y); }); row("box rows1", b2, ms); double s0=sum(y,NE);
  ms = timeit([&]{ box_rows<8><<<dim3(BW/256,BM/8),256>>>(x,y); }); row("box rows8", b2, ms); double s1=sum(y,NE);
  for (int R : {1,2,4,8}) { char nm[32]; snprintf(nm,32,"box v4 rows%d",R);
    if (R==1) ms = timeit([&]{ box_v4<1><<<dim3(BW/4/256,BM),256>>>(x,y); });
    if (R==2) ms = timeit([&]{ box_v4<2><<<dim3(BW/4/256,BM/2),256>>>(x,y); });
    if (R==4) ms = timeit([&]{ box_v4<4><<<dim3(BW/4/256,BM/4),256>>>(x,y); });
    if (R==8) ms = timeit([&]{ box_v4<8><<<dim3(BW/4/256,BM/8),256>>>(x,y); });
    row(nm, b2, ms); double s=sum(y,NE); if (s!=s0) printf("  MISMATCH %.9g vs %.9g\n", s, s0); }
  (void)s1;
  CHECK(cudaFree(x)); CHECK(cudaFree(y));
  size_t LE=(size_t)LN*LN; float *a,*b,*t; CHECK(cudaMalloc(&a,LE*4)); CHECK(cudaMalloc(&b,LE*4)); CHECK(cudaMalloc(&t,LE*4));
  { std::vector<float> w(9); float sw=0; for(int k=0;k<9;k++){w[k]=expf(-(k-4)*(k-4)/8.0f); sw+=w[k];} for(auto& v:w) v/=sw; CHECK(cudaMemcpyToSymbol(cw,w.data(),36)); }
  { std::vector<float> h(LE); for (size_t k=0;k<LE;k++) h[k]=(float)((k*2654435761u)%256); CHECK(cudaMemcpy(a,h.data(),LE*4,cudaMemcpyHostToDevice)); }
  double lb=2.0*LE*4;
  ms = timeit([&]{ gv_rows<1><<<dim3(LN/256,LN),256>>>(a,t); }); row("gauss vert rows1", lb, ms);
  ms = timeit([&]{ gv_rows<8><<<dim3(LN/256,LN/8),256>>>(a,t); }); row("gauss vert rows8", lb, ms);
  ms = timeit([&]{ gh_rows<1><<<dim3(LN/256,LN),256>>>(t,b); }); row("gauss horiz rows1", lb, ms); double g0=sum(b,LE);
  ms = timeit([&]{ gh_rows<8><<<dim3(LN/256,LN/8),256>>>(t,b); }); row("gauss horiz rows8", lb, ms);
  ms = timeit([&]{ gh_v4<1><<<dim3(LN/4/256,LN),256>>>(t,b); }); row("gauss horiz v4", lb, ms);
  ms = timeit([&]{ gh_v4<4><<<dim3(LN/4/256,LN/4),256>>>(t,b); }); row("gauss horiz v4 rows4", lb, ms); { double s=sum(b,LE); if (fabs(s-g0)>1e-6*fabs(g0)) printf("  MISMATCH %.9g vs %.9g\n", s, g0); }
  { std::vector<float> h(LE); for(size_t k=0;k<LE;k++) h[k]=((k*2654435761u)>>7)%7<2; CHECK(cudaMemcpy(a,h.data(),LE*4,cudaMemcpyHostToDevice)); }
  ms = timeit([&]{ life_rows<1><<<dim3(LN/256,LN),256>>>(a,b); }); row("life rows1", lb, ms); double l0=sum(b,LE);
  ms = timeit([&]{ life_rows<8><<<dim3(LN/256,LN/8),256>>>(a,b); }); row("life rows8", lb, ms);
  ms = timeit([&]{ life_v4<1><<<dim3(LN/4/256,LN),256>>>(a,b); }); row("life v4", lb, ms);
  ms = timeit([&]{ life_v4<4><<<dim3(LN/4/256,LN/4),256>>>(a,b); }); row("life v4 rows4", lb, ms);
  ms = timeit([&]{ life_v4<8><<<dim3(LN/4/256,LN/8),256>>>(a,b); }); row("life v4 rows8", lb, ms); { double s=sum(b,LE); if (s!=l0) printf("  MISMATCH %.9g vs %.9g\n", s, l0); }
  return 0;
}
