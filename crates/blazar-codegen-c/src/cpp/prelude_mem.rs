//! The host C++ dialect's part of the prelude, after `crate::prelude`: the launch ABI,
//! boundary modes, the error record, strip folds, atomics on global arrays and dynamic
//! kernel memory.
//!
//! The ABI structs mirror `blazar-native`'s `abi` (`#[repr(C)]`). Error codes of `bz_err::code`
//! (see `code`): 1 assertion, 2 index out of bounds (`a` index, `b`
//! dimension, `c` extent), 3 one dynamic allocation too large (`a` bytes), 4 dynamic
//! memory of a work item exhausted (`a` bytes in use), 5 a negative extent (`a` the
//! extent, `b` the builtin as numbered by `blazar_kir::ALLOC_BUILTINS`), 7 a shared
//! allocation too large (`a` bytes).

/// ABI, boundary modes, errors, atomics, dynamic memory.
pub const PRELUDE_MEM: &str = r#"// ---- Blazar native prelude: ABI, boundary modes, errors, atomics, memory ----
struct bz_garr { void* data; i64 len; i64 rank; i64 dims[8]; };
struct bz_call {
  const bz_garr* arrs; const u8* params; i64* stop;
  i64 kd[4]; i64 kb[4]; i64 total; i64 items; i64 chunk; const u64* sig;
  void* shared;
};
// A signal asked the run to stop: the process's flag, read without ordering.
static inline u64 bz_signal(const u64* sig) { return __atomic_load_n(sig, __ATOMIC_RELAXED); }
struct bz_err { i32 code; i32 line; i64 item; u64 a; i64 b; i64 c; i64 pos; };
// Under fission: thread `tid` failed with `e`; it stops, the block keeps its lowest
// failing thread's error in `fe`, and `u` moves to the lowest thread still running.
static inline void bz_thread_failed(bz_err& e, bz_err& fe, i64& fe_tid, i64 tid,
                                    unsigned char* dead, i64& u, i64 nt) {
  if (!fe.code || tid < fe_tid) { fe = e; fe_tid = tid; }
  e.code = 0;
  dead[tid] = 1;
  while (u < nt && dead[u]) u++;
}
// Lowers the launch's stop mark to `key` (the lowest failing position found so far).
static inline void bz_stop_min(const i64* stop, i64 key) {
  i64* s = (i64*)stop;
  i64 cur = __atomic_load_n(s, __ATOMIC_RELAXED);
  while (key < cur && !__atomic_compare_exchange_n(s, &cur, key, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

static BZ_INLINE bool bz_in(i64 i, i64 n) { return (u64)i < (u64)n; }
// The byte ranges [a0, a1) and [b0, b1) do not overlap.
static BZ_INLINE bool bz_apart(const char* a0, const char* a1, const char* b0, const char* b1) {
  return a1 <= b0 || b1 <= a0;
}
// Boundary modes 1 circular, 2 mirror, 3 clamped: the index inside [0, n), or -1 when
// the dimension is empty.
template<int M> static BZ_INLINE i64 bz_remap(i64 i, i64 n) {
  if ((u64)i < (u64)n) return i;
  if (n <= 0) return -1;
  if constexpr (M == 1) { i64 r = i % n; return r < 0 ? r + n : r; }
  else if constexpr (M == 2) {
    u64 m = 2 * (u64)n, j = (i < 0 ? 0ull - (u64)i : (u64)i) % m;
    return (i64)(j >= (u64)n ? m - 1 - j : j);
  } else { return i < 0 ? 0 : n - 1; }
}
// A `'checked` index: records the first violation (the statement then aborts).
static inline void bz_oob(bz_err& e, i32 line, i64 i, i64 d, i64 n) {
  if (e.code == 0) { e.code = 2; e.line = line; e.a = (u64)i; e.b = d; e.c = n; }
}

// A reduction strip's lane accumulator `a` combined with a value `x`: `bz_combine`,
// except that the min or max of reals is the plain select `x < a ? x : a` (one
// `vminps`/`vmaxps` when vectorised) instead of `bz_fminf`'s, which also takes `x` when
// `a` is NaN. A lane accumulator never is: it starts at the identity (+-inf) and a NaN
// `x` never replaces it (the compare is false), so both give the same bits, +-0 too
// (equal operands keep `a`).
template<int OP, typename T> BZ_FN T bz_lane_combine(T a, T x) {
  if constexpr (OP == 5 && bz_t<T>::is_float) return x < a ? x : a;
  else if constexpr (OP == 6 && bz_t<T>::is_float) return x > a ? x : a;
  else return bz_combine<OP, T>(a, x);
}

// The `N` values of a strip combined pairwise (halves, quarters, ...): each step is an
// element-wise map the compiler vectorises. Only for the outputs' associative and
// commutative operations (the partial results of a launch have no order either).
template<int OP, typename T, int N> static BZ_INLINE T bz_fold(const T* v) {
  T w[N];
  memcpy(w, v, sizeof w);
  for (int h = N / 2; h >= 1; h /= 2)
    for (int i = 0; i < h; i++) w[i] = bz_combine<OP, T>(w[i], w[i + h]);
  return w[0];
}

// Atomic `*p = *p op x` on global arrays: GCC `__atomic` builtins, compare-and-swap
// loops on the bits of 1-, 2-, 4- and 8-byte values, a lock for 16-byte complex
// values (whose `*=`, `/=`, `^=` the executor also serialises).
template<typename T> struct bz_word;
template<> struct bz_word<i8> { typedef u8 U; };
template<> struct bz_word<u8> { typedef u8 U; };
template<> struct bz_word<i16> { typedef u16 U; };
template<> struct bz_word<u16> { typedef u16 U; };
template<> struct bz_word<i32> { typedef u32 U; };
template<> struct bz_word<u32> { typedef u32 U; };
template<> struct bz_word<f32> { typedef u32 U; };
template<> struct bz_word<i64> { typedef u64 U; };
template<> struct bz_word<u64> { typedef u64 U; };
template<> struct bz_word<f64> { typedef u64 U; };
template<> struct bz_word<c32> { typedef u64 U; };
template<int OP, typename T> static inline void bz_cas(T* p, T x) {
  typedef typename bz_word<T>::U U;
  U* w = (U*)p;
  U old = __atomic_load_n(w, __ATOMIC_RELAXED);
  for (;;) {
    T cur; memcpy(&cur, &old, sizeof(T));
    T nv = bz_combine<OP>(cur, x);
    U nw; memcpy(&nw, &nv, sizeof(T));
    if (__atomic_compare_exchange_n(w, &old, nw, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
  }
}
static int bz_lock_word = 0;
template<int OP, typename T> static inline void bz_atomic(T* p, T x) {
  if constexpr (bz_same<T, c64>::v || (bz_same<T, c32>::v && (OP == 0 || OP == 1))) {
    if constexpr (OP == 0 || OP == 1) {
      typedef decltype(x.re) R;
      bz_cas<0, R>(&p->re, OP == 0 ? x.re : -x.re);
      bz_cas<0, R>(&p->im, OP == 0 ? x.im : -x.im);
    } else {
      while (__atomic_exchange_n(&bz_lock_word, 1, __ATOMIC_ACQUIRE)) {}
      *p = bz_combine<OP>(*p, x);
      __atomic_store_n(&bz_lock_word, 0, __ATOMIC_RELEASE);
    }
  } else if constexpr (bz_t<T>::is_int && OP == 0) {
    __atomic_fetch_add(p, x, __ATOMIC_RELAXED);
  } else if constexpr (bz_t<T>::is_int && OP == 1) {
    __atomic_fetch_sub(p, x, __ATOMIC_RELAXED);
  } else if constexpr (bz_t<T>::is_int && OP == 7) {
    __atomic_fetch_and(p, x, __ATOMIC_RELAXED);
  } else if constexpr (bz_t<T>::is_int && OP == 8) {
    __atomic_fetch_or(p, x, __ATOMIC_RELAXED);
  } else if constexpr (bz_t<T>::is_int && OP == 9) {
    __atomic_fetch_xor(p, x, __ATOMIC_RELAXED);
  } else {
    bz_cas<OP>(p, x);
  }
}

// Dynamic kernel memory (`zeros` inside a kernel), as the executor's `local.rs`: each
// allocation is rounded up to a power-of-two multiple of 1024 bytes and may not exceed
// 32768 bytes; the live dynamic memory of a work item may not exceed 16 MiB. A thread
// owns one 32 KiB buffer per array slot.
static BZ_INLINE u64 bz_mul_sat(u64 a, u64 b) { u64 r; return __builtin_mul_overflow(a, b, &r) ? ~0ull : r; }
static inline bool bz_local_bytes(u64 bytes, u64& slot_bytes, u64& live, bz_err& e, i32 line) {
  if (bytes > 32768u) { e.code = 3; e.line = line; e.a = bytes; return false; }
  u64 rounded = 0;
  if (bytes > 0) { rounded = 1024; while (rounded < bytes) rounded <<= 1; }
  live = live - slot_bytes + rounded;
  slot_bytes = rounded;
  if (live > (16u << 20)) { e.code = 4; e.line = line; e.a = live; return false; }
  return true;
}
"#;
