//! The CUDA dialect's part of the prelude, after `crate::prelude`: arrays, boundary modes, the error record, atomics,
//! block reductions for kernel outputs, shared-memory carving and the dynamic-memory
//! pool.
//!
//! Error codes (the low byte of `bz_err::code`; see `crate::cuda::ErrorKind`): 1 assertion,
//! 2 index out of bounds (`code >> 8` = dimension, `a` = index, `b` = extent), 3 dynamic
//! or shared memory exhausted (`a` = bytes asked for, `b` = the limit), 5 a negative
//! extent (`a` = the extent, `b` = the builtin, numbered as `blazar_kir::ALLOC_BUILTINS`).

/// Arrays, boundary modes, errors, atomics, reductions, allocators.
pub const PRELUDE_MEM: &str = r#"// ---- Blazar prelude: arrays, boundary modes, errors, atomics, memory ----
// An array argument: data and extents (dims past the rank are 1), row-major.
template<typename T> struct bz_arr { T* data; i32 dims[4]; };
// The extents of an array parameter (passed apart from its pointer).
struct bz_ext { i32 d[4]; };
// The index space as the kernel sees it: extents and block extents per pos component.
struct bz_space { i32 dims[4]; i32 block[4]; };
// The error of a launch; the host reads it after synchronising. It keeps the failure
// of the lowest linear position: `inv` holds the complement of the lowest failing
// position so far (zero: none), `lock` guards the payload.
struct bz_err { i32 code; i32 line; i32 a; i32 b; unsigned long long inv; i32 lock; i32 pad; };
// A thread's view of the record: the record and its position's key.
struct bz_ectx { bz_err* rec; unsigned long long key; };
// Per-launch pool for dynamic kernel memory (`zeros` inside a kernel).
struct bz_pool { u8* base; u64 cap; u64* top; };

__device__ __noinline__ void bz_fail(bz_ectx* c, i32 code, i32 line, i32 a, i32 b) {
  bz_err* e = c->rec;
  const unsigned long long inv = ~c->key;
  // Only a position lower than every failure so far goes on (few do); a position's
  // second failure is not lower than its first.
  if (atomicMax(&e->inv, inv) >= inv) return;
  while (atomicCAS(&e->lock, 0, 1) != 0) {}
  __threadfence();
  if (*(volatile unsigned long long*)&e->inv == inv) {
    e->line = line; e->a = a; e->b = b;
    __threadfence();
    *(volatile i32*)&e->code = code;
  }
  __threadfence();
  atomicExch(&e->lock, 0);
}

// Indices of any integer type, saturated to i32 (extents are i32).
template<typename I> __device__ __forceinline__ i32 bz_ix(I i) {
  if constexpr (sizeof(I) < 4 || bz_same<I, i32>::v) return (i32)i;
  else if constexpr (bz_t<I>::is_signed) return i < (I)(-2147483647 - 1) ? (-2147483647 - 1) : i > (I)2147483647 ? 2147483647 : (i32)i;
  else return i > (I)2147483647u ? 2147483647 : (i32)i;
}

// Boundary modes: 0 zero, 1 circular, 2 mirror, 3 clamped, 4 checked, 5 unchecked.
// Returns the index inside [0, n), or -1 when the element does not exist.
template<int M> __device__ __forceinline__ i32 bz_fold(i32 i, i32 n, i32 d, i32 line, bz_ectx* e) {
  if (M == 5 || (u32)i < (u32)n) return i;
  if (n <= 0) { if (M == 4) bz_fail(e, 2 | (d << 8), line, i, n); return -1; }
  if (M == 1) { i32 r = i % n; return r < 0 ? r + n : r; }
  if (M == 2) { u32 j = (i < 0 ? 0u - (u32)i : (u32)i) % (2u * (u32)n); return (i32)(j >= (u32)n ? 2u * (u32)n - 1u - j : j); }
  if (M == 3) return i < 0 ? 0 : n - 1;
  if (M == 4) bz_fail(e, 2 | (d << 8), line, i, n);
  return -1;
}
// Row-major offset of (i0, n0, i1, n1, ...); -1 as soon as one index is outside.
template<int M> __device__ __forceinline__ i32 bz_idx(bz_ectx*, i32, i32, i32 off) { return off; }
template<int M, typename... R>
__device__ __forceinline__ i32 bz_idx(bz_ectx* e, i32 line, i32 d, i32 off, i32 i, i32 n, R... rest) {
  i32 j = bz_fold<M>(i, n, d, line, e);
  if (M != 5 && j < 0) return -1;
  return bz_idx<M>(e, line, d + 1, off * n + j, rest...);
}
template<typename T> __device__ __forceinline__ T bz_get(const T* p, i32 o) { return o < 0 ? T{} : p[(u32)o]; }
// Zero extension without sentinel offsets: every index is compared first and one
// predicated access follows, so the compiler can issue neighbouring loads together.
__device__ __forceinline__ bool bz_in(i32& off) { return true; }
template<typename... R> __device__ __forceinline__ bool bz_in(i32& off, i32 i, i32 n, R... rest) {
  bool ok = (u32)i < (u32)n;
  off = off * n + i;
  return bz_in(off, rest...) && ok;
}
template<typename T, typename... R> __device__ __forceinline__ T bz_getz(const T* p, R... idx) {
  i32 off = 0;
  const bool ok = bz_in(off, idx...);
  return ok ? p[(u32)off] : T{};
}
// The same for arrays with memory for element 0 (global arrays): the load itself is
// unconditional (element 0 where out of range), so that equal loads of neighbouring
// positions are one load to the compiler.
template<typename T, typename... R> __device__ __forceinline__ T bz_getzu(const T* p, R... idx) {
  i32 off = 0;
  const bool ok = bz_in(off, idx...);
  const T x = p[(u32)(ok ? off : 0)];
  return ok ? x : T{};
}
template<typename T, typename V, typename... R> __device__ __forceinline__ void bz_putz(T* p, V v, R... idx) {
  i32 off = 0;
  if (bz_in(off, idx...)) p[(u32)off] = (T)v;
}
template<typename T, typename V> __device__ __forceinline__ void bz_put(T* p, i32 o, V v) { if (o >= 0) p[(u32)o] = (T)v; }

// Atomic `*p = *p op x`: native atomics where CUDA has them, compare-and-swap loops
// otherwise (8/16-bit types through the aligned 32-bit word that holds them).
// The bits of a 1-, 2-, 4- or 8-byte value as an unsigned integer, and back.
template<typename T, typename U> __device__ __forceinline__ U bz_bits(T x) {
  if constexpr (bz_same<T, f32>::v) return (U)__float_as_uint(x);
  else if constexpr (bz_same<T, f64>::v) return (U)__double_as_longlong(x);
  else if constexpr (bz_same<T, c32>::v) return ((U)__float_as_uint(x.im) << 32) | (U)__float_as_uint(x.re);
  else if constexpr (sizeof(T) == 1) return (U)(u8)x;
  else if constexpr (sizeof(T) == 2) return (U)(u16)x;
  else return (U)x;
}
template<typename T, typename U> __device__ __forceinline__ T bz_from(U u) {
  if constexpr (bz_same<T, f32>::v) return __uint_as_float((u32)u);
  else if constexpr (bz_same<T, f64>::v) return __longlong_as_double((i64)u);
  else if constexpr (bz_same<T, c32>::v) return c32{__uint_as_float((u32)u), __uint_as_float((u32)(u >> 32))};
  else if constexpr (bz_same<T, bool>::v) return u != 0;
  else return (T)u;
}
template<int OP, typename T> __device__ void bz_cas(T* p, T x) {
  if constexpr (sizeof(T) < 4) {
    u32* w = (u32*)((size_t)p & ~(size_t)3);
    u32 sh = (u32)((size_t)p & 3) * 8u, mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << sh;
    u32 old = *w, assumed;
    do {
      assumed = old;
      T cur = bz_from<T, u32>((assumed & mask) >> sh);
      u32 nw = (assumed & ~mask) | ((bz_bits<T, u32>(bz_combine<OP>(cur, x)) << sh) & mask);
      old = atomicCAS(w, assumed, nw);
    } while (old != assumed);
  } else if constexpr (sizeof(T) == 4) {
    u32* w = (u32*)p;
    u32 old = *w, assumed;
    do {
      assumed = old;
      old = atomicCAS(w, assumed, bz_bits<T, u32>(bz_combine<OP>(bz_from<T, u32>(assumed), x)));
    } while (old != assumed);
  } else if constexpr (sizeof(T) == 8) {
    u64* w = (u64*)p;
    u64 old = *w, assumed;
    do {
      assumed = old;
      old = atomicCAS(w, assumed, bz_bits<T, u64>(bz_combine<OP>(bz_from<T, u64>(assumed), x)));
    } while (old != assumed);
  } else {
    // 16-byte complex: sm_90 has a 128-bit compare-and-swap.
    T old = *p, assumed;
    do {
      assumed = old;
      old = atomicCAS(p, assumed, bz_combine<OP>(assumed, x));
    } while (__double_as_longlong(old.re) != __double_as_longlong(assumed.re) ||
             __double_as_longlong(old.im) != __double_as_longlong(assumed.im));
  }
}
template<int OP, typename T> __device__ __forceinline__ void bz_atomic(T* p, T x) {
  constexpr bool i32l = bz_same<T, i32>::v || bz_same<T, u32>::v;
  constexpr bool i64l = bz_same<T, i64>::v || bz_same<T, u64>::v;
  if constexpr (bz_t<T>::is_complex) {
    if constexpr (OP == 0 || OP == 1) {
      bz_atomic<OP>(&p->re, x.re);
      bz_atomic<OP>(&p->im, x.im);
    } else {
      bz_cas<OP>(p, x);
    }
  } else if constexpr ((OP == 0 || OP == 1) && (bz_t<T>::is_float || i32l)) {
    atomicAdd(p, OP == 0 ? x : (T)(0 - x));
  } else if constexpr ((OP == 0 || OP == 1) && i64l) {
    atomicAdd((u64*)p, OP == 0 ? (u64)x : 0ull - (u64)x);
  } else if constexpr ((OP == 5 || OP == 6) && (i32l || i64l)) {
    if constexpr (OP == 5) atomicMin(p, x); else atomicMax(p, x);
  } else if constexpr (OP >= 7 && (i32l || i64l)) {
    if constexpr (sizeof(T) == 8) {
      if constexpr (OP == 7) atomicAnd((u64*)p, (u64)x);
      else if constexpr (OP == 8) atomicOr((u64*)p, (u64)x);
      else atomicXor((u64*)p, (u64)x);
    } else {
      if constexpr (OP == 7) atomicAnd((u32*)p, (u32)x);
      else if constexpr (OP == 8) atomicOr((u32*)p, (u32)x);
      else atomicXor((u32*)p, (u32)x);
    }
  } else {
    bz_cas<OP>(p, x);
  }
}

// A block-wide reduction of one value per thread (warp shuffles, then 32 partials in
// shared memory); the result is valid in thread 0 of the block.
template<typename T> __device__ __forceinline__ T bz_shfl_down(u32 mask, T v, int o) {
  if constexpr (bz_t<T>::is_complex) {
    return T{__shfl_down_sync(mask, v.re, o), __shfl_down_sync(mask, v.im, o)};
  } else if constexpr (sizeof(T) < 4) {
    return (T)__shfl_down_sync(mask, (i32)v, o);
  } else if constexpr (bz_same<T, u64>::v || bz_same<T, i64>::v) {
    return (T)__shfl_down_sync(mask, (unsigned long long)v, o);
  } else {
    return __shfl_down_sync(mask, v, o);
  }
}
// D: the threads may arrive from diverged paths (kernels with the software barrier):
// the barrier is the unaligned `barrier.sync`, which every thread may reach on its own.
template<int OP, bool D = false, typename T> __device__ T bz_block_reduce(T v, T* red) {
  i32 nt = (i32)(blockDim.x * blockDim.y * blockDim.z);
  i32 tid = (i32)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  i32 lane = tid & 31, warp = tid >> 5;
  i32 width = min(32, nt - (warp << 5));
  u32 mask = width == 32 ? 0xffffffffu : ((1u << width) - 1u);
  for (int o = 16; o > 0; o >>= 1) {
    T w = bz_shfl_down(mask, v, o);
    if (lane + o < width) v = bz_combine<OP>(v, w);
  }
  if (lane == 0) red[warp] = v;
  if constexpr (D) asm volatile("barrier.sync 0;" ::: "memory");
  else __syncthreads();
  if (tid == 0) {
    for (i32 k = 1; k < (nt + 31) >> 5; k++) v = bz_combine<OP>(v, red[k]);
  }
  return v;
}

// Outputs handed to the host through page-locked memory (`CodegenOptions::mirror`):
// called by thread 0 of every block after its atomics. Blocks count themselves in the
// record's last word; the last one copies the record and accumulators (`words` 32-bit
// words, read at L2, where the atomics are) to `host[4..]`, clears the count for the
// region's next use, and then publishes `seq` at `host[0]`, which the host polls for.
struct bz_mirror { u32* host; u32 seq; u32 words; };
__device__ __noinline__ void bz_mirror_out(bz_err* rec, bz_mirror m) {
  __threadfence();
  // A grid of 2^32 blocks or more does not fit the count (it would wrap and call a block
  // the last too early): nothing is handed over, the host waits and copies as usual.
  const u64 blocks = (u64)gridDim.x * (u64)gridDim.y * (u64)gridDim.z;
  if (blocks > 0xffffffffull) return;
  u32* count = (u32*)&rec->pad;
  if (atomicAdd(count, 1u) != (u32)blocks - 1u) return;
  __threadfence();
  const volatile u32* src = (const volatile u32*)rec;
  volatile u32* dst = (volatile u32*)m.host;
  for (u32 k = 0; k < m.words; k++) dst[4 + k] = src[k];
  *(volatile u32*)count = 0u;
  __threadfence_system();
  dst[0] = m.seq;
}

// Fills n elements with x using every thread of the block (no barrier).
template<typename T> __device__ __forceinline__ void bz_fill_block(T* p, i32 n, T x) {
  i32 nt = (i32)(blockDim.x * blockDim.y * blockDim.z);
  i32 tid = (i32)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  for (i32 k = tid; k < n; k += nt) p[k] = x;
}

__device__ __forceinline__ u32 bz_dyn_smem_size() {
  u32 r;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));
  return r;
}
// Carves a shared array of extents d[0..4] out of the dynamic shared memory. Every
// thread of the block computes the same offsets; a slot reuses its space when it is
// allocated again with a size that fits.
template<typename T> __device__ void bz_shared_alloc(bz_arr<T>& a, u32& cap, u32& top, u8* smem,
                                                     const i32 (&d)[4], bz_ectx* e, i32 line) {
  u64 n = (u64)d[0] * (u64)d[1] * (u64)d[2] * (u64)d[3];
  u64 bytes = n * sizeof(T);
  if (bytes > cap) {
    u64 at = (top + 15u) & ~15ull;
    u32 limit = bz_dyn_smem_size();
    if (at + bytes > limit) {
      bz_fail(e, 3, line, (i32)min(bytes, 2147483647ull), (i32)limit);
      a.data = 0;
      a.dims[0] = a.dims[1] = a.dims[2] = a.dims[3] = 0;
      return;
    }
    a.data = (T*)(smem + at);
    cap = (u32)bytes;
    top = (u32)(at + bytes);
  }
  for (int k = 0; k < 4; k++) a.dims[k] = d[k];
}

// Dynamic kernel memory: each allocation is rounded up to a power-of-two multiple of
// 1024 bytes and may not exceed 32768 bytes; a thread reuses its block when the array
// is allocated again with a size that fits. The pool is a bump allocator (no free).
template<typename T> __device__ void bz_local_alloc(bz_arr<T>& a, u32& cap, bz_pool pool, const i32 (&d)[4],
                                                    int fill, bz_ectx* e, i32 line) {
  u64 n = (u64)d[0] * (u64)d[1] * (u64)d[2] * (u64)d[3];
  u64 bytes = n * sizeof(T);
  if (bytes > 32768u) {
    bz_fail(e, 3, line, (i32)min(bytes, 2147483647ull), 32768);
    a.data = 0;
    a.dims[0] = a.dims[1] = a.dims[2] = a.dims[3] = 0;
    return;
  }
  u32 rounded = 1024u;
  while (rounded < bytes) rounded <<= 1;
  if (bytes > 0 && rounded > cap) {
    u64 at = atomicAdd((unsigned long long*)pool.top, (unsigned long long)rounded);
    if (at + rounded > pool.cap) {
      bz_fail(e, 3, line, (i32)rounded, (i32)min(pool.cap, 2147483647ull));
      a.data = 0;
      a.dims[0] = a.dims[1] = a.dims[2] = a.dims[3] = 0;
      cap = 0;
      return;
    }
    a.data = (T*)(pool.base + at);
    cap = rounded;
  }
  for (int k = 0; k < 4; k++) a.dims[k] = d[k];
  if (fill != 2) {
    T x = fill == 1 ? bz_cast<T>(1) : T{};
    for (u64 k = 0; k < n; k++) a.data[k] = x;
  }
}
"#;
