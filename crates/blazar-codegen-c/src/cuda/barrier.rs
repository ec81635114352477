//! Barriers under thread-dependent control flow: the software block barrier that
//! replaces `__syncthreads()` in kernels whose barriers sit under a condition (or in a
//! loop) that depends on the thread.
//!
//! Blazar's rule (`blazar_kir::uniform`): a barrier waits for the threads of the block
//! that reach it, and a thread that skips one may only run on to the end of the kernel.
//! CUDA's `__syncthreads()` is undefined in such code (it compiles to an *aligned*
//! `bar.sync`, which assumes every thread of the block executes that same instruction;
//! a tree reduction written this way did not finish on an H100). So for the kernels
//! [`blazar_kir::uniform::divergent_barrier`] finds, and for kernels with outputs, a
//! barrier and a `return` under such a condition ([`blazar_kir::uniform::varying_return`]:
//! a thread leaving early would reach the output epilogue's hardware barrier while
//! others wait at one in the body, and barrier 0 would release both), the generator declares a
//! `bz_sbar` in shared memory that counts the threads still expected at a barrier:
//! every thread that leaves the kernel (a `return`, the end of the body, the output
//! epilogue) *exits* it, so threads waiting at a barrier are released once every
//! thread that has not left has arrived. Arrived (low 16 bits) and expected (high 16
//! bits) share one `int`, so arriving and exiting are single atomics and exactly one
//! party sees the completing state; it resets the arrivals and advances a generation
//! counter that the others spin on. Spinning inside a diverged warp relies on
//! independent thread scheduling (sm_70 and later; NVRTC of CUDA 13 targets sm_75+).
//! Kernels without such barriers keep `__syncthreads()`.

use crate::cuda::kernel::Gen;

/// The software barrier's device code, added to the source of the kernels that use it.
pub const PRELUDE_BARRIER: &str = r#"
// ---- Blazar prelude: the software block barrier (barriers under divergent code) ----
// st: arrivals at the current barrier (low 16 bits) and threads still in the kernel
// (high 16 bits); gen: barriers completed; count: threads that passed the last one.
struct bz_sbar { int st; int gen; int count; };
__device__ __forceinline__ void bz_sbar_init(bz_sbar* b) {
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    b->st = (int)(blockDim.x * blockDim.y * blockDim.z) << 16;
    b->gen = 0;
    b->count = 0;
  }
  __syncthreads();
}
// The completing party: every expected thread has arrived (or left).
__device__ __forceinline__ void bz_sbar_release(bz_sbar* b, int arrived) {
  *(volatile int*)&b->count = arrived;
  atomicAnd(&b->st, ~0xffff);
  __threadfence_block();
  atomicAdd(&b->gen, 1);
}
// Waits for the threads of the block that have not left the kernel; returns this
// thread's rank among the arrivals and, in *n (when given), their number.
__device__ __noinline__ int bz_sbar_sync(bz_sbar* b, int* n) {
  volatile int* gen = &b->gen;
  const int g = *gen;
  __threadfence_block();
  const int old = atomicAdd(&b->st, 1);
  if ((old & 0xffff) + 1 == (old >> 16)) {
    bz_sbar_release(b, (old & 0xffff) + 1);
  } else {
    while (*gen == g) {
#if __CUDA_ARCH__ >= 700
      __nanosleep(32);
#endif
    }
  }
  __threadfence_block();
  if (n) *n = *(volatile int*)&b->count;
  return old & 0xffff;
}
// A thread leaves the kernel: it is no longer expected at any barrier, and it releases
// the waiting threads if they were only waiting for it.
__device__ __noinline__ void bz_sbar_exit(bz_sbar* b) {
  __threadfence_block();
  const int old = atomicSub(&b->st, 1 << 16);
  const int arrived = old & 0xffff;
  if (arrived > 0 && arrived == (old >> 16) - 1) bz_sbar_release(b, arrived);
}
// n elements set to x by the threads that passed a barrier (rank r of nb).
template<typename T> __device__ __forceinline__ void bz_fill_ranked(T* p, i32 n, T x, int r, int nb) {
  for (i32 k = r; k < n; k += (nb > 0 ? nb : 1)) p[k] = x;
}
"#;

/// The statement a thread runs where it leaves a kernel with a software barrier.
pub(crate) const EXIT: &str = "bz_sbar_exit(&bz_sb);";

impl Gen<'_> {
    /// A `syncthreads` statement.
    pub(crate) fn barrier_stmt(&self) -> &'static str {
        if self.soft_barrier {
            "bz_sbar_sync(&bz_sb, 0);"
        } else {
            "__syncthreads();"
        }
    }

    /// A `return` that ends the thread (no outputs, no coarsened run).
    pub(crate) fn return_stmt(&self) -> &'static str {
        if self.soft_barrier {
            "{ bz_sbar_exit(&bz_sb); return; }"
        } else {
            "return;"
        }
    }

    /// The zero fill of `shared_zeros` and the barrier after it. Under the software
    /// barrier some threads may have left, so the threads that reach the allocation
    /// meet first and split the elements by their arrival rank.
    pub(crate) fn zero_fill_lines(&self, data: &str, count: &str, zero: &str) -> Vec<String> {
        if self.soft_barrier {
            vec![
                "int bz_nb = 0;".into(),
                "const int bz_rk = bz_sbar_sync(&bz_sb, &bz_nb);".into(),
                format!("bz_fill_ranked({data}, {count}, {zero}, bz_rk, bz_nb);"),
                "bz_sbar_sync(&bz_sb, 0);".into(),
            ]
        } else {
            vec![
                format!("bz_fill_block({data}, {count}, {zero});"),
                "__syncthreads();".into(),
            ]
        }
    }
}
