//! The CUDA C++ prelude, part 1: scalar type names, complex numbers, conversions,
//! integer arithmetic with the CPU executor's rules, and fixed-length vectors.
//!
//! Every generated kernel starts with [`PRELUDE`] (this part, then
//! `prelude_mem::PRELUDE_MEM`). It needs no headers: NVRTC provides the CUDA math
//! functions and atomics. It is written for C++17 (`if constexpr`).

/// Types, complex numbers, casts, integer helpers, vectors.
pub const PRELUDE_CORE: &str = r#"// ---- Blazar prelude: types, complex numbers, conversions, vectors ----
typedef signed char i8;
typedef short i16;
typedef int i32;
typedef long long i64;
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef float f32;
typedef double f64;

struct __align__(8) c32 { f32 re, im; };
struct __align__(16) c64 { f64 re, im; };

template<typename A, typename B> struct bz_same { static constexpr bool v = false; };
template<typename A> struct bz_same<A, A> { static constexpr bool v = true; };
template<typename T> struct bz_t {
  static constexpr bool is_float = bz_same<T, f32>::v || bz_same<T, f64>::v;
  static constexpr bool is_complex = bz_same<T, c32>::v || bz_same<T, c64>::v;
  static constexpr bool is_bool = bz_same<T, bool>::v;
  static constexpr bool is_int = !is_float && !is_complex && !is_bool;
  static constexpr bool is_signed = bz_same<T, i8>::v || bz_same<T, i16>::v || bz_same<T, i32>::v || bz_same<T, i64>::v;
};
template<typename T> struct bz_lim;
#define BZ_LIM(T, LO, HI) template<> struct bz_lim<T> { \
  static __device__ __forceinline__ T lo() { return LO; } \
  static __device__ __forceinline__ T hi() { return HI; } };
BZ_LIM(i8, -128, 127)
BZ_LIM(i16, -32768, 32767)
BZ_LIM(i32, (-2147483647 - 1), 2147483647)
BZ_LIM(i64, (-9223372036854775807LL - 1), 9223372036854775807LL)
BZ_LIM(u8, 0, 255)
BZ_LIM(u16, 0, 65535)
BZ_LIM(u32, 0u, 4294967295u)
BZ_LIM(u64, 0ull, 18446744073709551615ull)
BZ_LIM(f32, __int_as_float(0xff800000), __int_as_float(0x7f800000))
BZ_LIM(f64, __longlong_as_double(0xfff0000000000000LL), __longlong_as_double(0x7ff0000000000000LL))

// Complex arithmetic: the formulas of num-complex, so results match the CPU executor.
#define BZ_COMPLEX(C, R) \
  __device__ __forceinline__ C operator+(C a, C b) { return C{a.re + b.re, a.im + b.im}; } \
  __device__ __forceinline__ C operator-(C a, C b) { return C{a.re - b.re, a.im - b.im}; } \
  __device__ __forceinline__ C operator-(C a) { return C{-a.re, -a.im}; } \
  __device__ __forceinline__ C operator*(C a, C b) { \
    return C{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; } \
  __device__ __forceinline__ C operator/(C a, C b) { \
    R n = b.re * b.re + b.im * b.im; \
    return C{(a.re * b.re + a.im * b.im) / n, (a.im * b.re - a.re * b.im) / n}; } \
  __device__ __forceinline__ bool operator==(C a, C b) { return a.re == b.re && a.im == b.im; } \
  __device__ __forceinline__ bool operator!=(C a, C b) { return !(a == b); } \
  __device__ __forceinline__ R bz_cabs(C z) { return hypot(z.re, z.im); } \
  __device__ __forceinline__ R bz_carg(C z) { return atan2(z.im, z.re); } \
  __device__ __forceinline__ C bz_polar(R r, R t) { return C{r * cos(t), r * sin(t)}; } \
  __device__ __forceinline__ C bz_conj(C z) { return C{z.re, -z.im}; } \
  __device__ __forceinline__ C bz_cexp(C z) { return bz_polar(exp(z.re), z.im); } \
  __device__ __forceinline__ C bz_clog(C z) { return C{log(bz_cabs(z)), bz_carg(z)}; } \
  __device__ __forceinline__ C bz_csqrt(C z) { \
    if (z.im == 0) { \
      if (!signbit(z.re)) return C{sqrt(z.re), z.im}; \
      R s = sqrt(-z.re); return C{(R)0, signbit(z.im) ? -s : s}; } \
    if (z.re == 0) { R x = sqrt(fabs(z.im) / (R)2); return C{x, signbit(z.im) ? -x : x}; } \
    return bz_polar(sqrt(bz_cabs(z)), bz_carg(z) / (R)2); } \
  __device__ __forceinline__ C bz_csin(C z) { return C{sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im)}; } \
  __device__ __forceinline__ C bz_ccos(C z) { return C{cos(z.re) * cosh(z.im), -sin(z.re) * sinh(z.im)}; } \
  __device__ __forceinline__ C bz_csinh(C z) { return C{sinh(z.re) * cos(z.im), cosh(z.re) * sin(z.im)}; } \
  __device__ __forceinline__ C bz_ccosh(C z) { return C{cosh(z.re) * cos(z.im), sinh(z.re) * sin(z.im)}; } \
  __device__ __forceinline__ C bz_ctan(C z) { \
    R a = z.re + z.re, b = z.im + z.im, d = cos(a) + cosh(b); return C{sin(a) / d, sinh(b) / d}; } \
  __device__ __forceinline__ C bz_ctanh(C z) { \
    R a = z.re + z.re, b = z.im + z.im, d = cosh(a) + cos(b); return C{sinh(a) / d, sin(b) / d}; } \
  __device__ __forceinline__ C bz_cpow(C a, C b) { \
    if (b.im == 0) return bz_polar(pow(bz_cabs(a), b.re), bz_carg(a) * b.re); \
    return bz_cexp(bz_clog(a) * b); }
BZ_COMPLEX(c32, f32)
BZ_COMPLEX(c64, f64)

// C-style conversions with Rust `as` semantics: float to int truncates and saturates
// (NaN gives 0), ints wrap, bool is `x != 0`, reals become complex with im = 0.
template<typename D, typename S> __device__ __forceinline__ D bz_cast(S x) {
  if constexpr (bz_same<D, S>::v) {
    return x;
  } else if constexpr (bz_t<D>::is_complex) {
    typedef decltype(D{}.re) R;
    if constexpr (bz_t<S>::is_complex) return D{(R)x.re, (R)x.im};
    else return D{bz_cast<R>(x), (R)0};
  } else if constexpr (bz_t<S>::is_complex) {
    return bz_cast<D>(x.re);
  } else if constexpr (bz_t<D>::is_bool) {
    return x != (S)0;
  } else if constexpr (bz_t<D>::is_int && bz_t<S>::is_float && sizeof(D) >= 4) {
    // `cvt.rzi` saturates, and from f32 to 32 bits gives 0 for NaN: Rust's `as` in one
    // instruction (measured on an H100; the other pairs give a limit for NaN).
    if constexpr (bz_same<S, f32>::v && bz_same<D, i32>::v) return __float2int_rz(x);
    else if constexpr (bz_same<S, f32>::v && bz_same<D, u32>::v) return __float2uint_rz(x);
    if (x != x) return (D)0;
    if constexpr (bz_same<S, f32>::v) {
      if constexpr (bz_same<D, i64>::v) return __float2ll_rz(x);
      else return __float2ull_rz(x);
    } else {
      if constexpr (bz_same<D, i32>::v) return __double2int_rz(x);
      else if constexpr (bz_same<D, u32>::v) return __double2uint_rz(x);
      else if constexpr (bz_same<D, i64>::v) return __double2ll_rz(x);
      else return __double2ull_rz(x);
    }
  } else if constexpr (bz_t<D>::is_int && bz_t<S>::is_float) {
    if (x != x) return (D)0;
    if (x <= (S)bz_lim<D>::lo()) return bz_lim<D>::lo();
    if (x >= (S)bz_lim<D>::hi()) return bz_lim<D>::hi();
    return (D)x;
  } else {
    return (D)x;
  }
}

// The iterations of `for (v = lo; st > 0 ? v <= hi : hi <= v; v += st)` over integers,
// counted before the loop so that the compiler sees a counted loop it can unroll (and
// issue several iterations' loads together). A zero step never ends when hi <= lo, as
// the loop it counts; a range of all 2^32 values of a 32-bit type counts as none.
template<bool WIDE> struct bz_count_t { typedef u32 t; };
template<> struct bz_count_t<true> { typedef u64 t; };
template<typename T> __device__ __forceinline__ typename bz_count_t<(sizeof(T) > 4)>::t
bz_trips(T lo, T st, T hi) {
  typedef typename bz_count_t<(sizeof(T) > 4)>::t U;
  if ((T)0 < st) return lo <= hi ? (U)((U)hi - (U)lo) / (U)st + 1 : (U)0;
  if (st < (T)0) return hi <= lo ? (U)((U)lo - (U)hi) / (U)((U)0 - (U)st) + 1 : (U)0;
  return hi <= lo ? ~(U)0 : (U)0;
}
// `v + st`, wrapping (the last step of a loop may pass the type's range).
template<typename T> __device__ __forceinline__ T bz_step(T v, T st) {
  typedef typename bz_count_t<(sizeof(T) > 4)>::t U;
  return (T)((U)v + (U)st);
}

// Integer arithmetic as in the CPU executor: wrapping, x / 0 == 0, x % 0 == 0.
template<typename T> __device__ __forceinline__ T bz_div(T a, T b) {
  if (b == (T)0) return (T)0;
  if constexpr (bz_t<T>::is_signed) { if (b == (T)-1) return (T)(0ull - (u64)(i64)a); }
  return (T)(a / b);
}
template<typename T> __device__ __forceinline__ T bz_rem(T a, T b) {
  if (b == (T)0) return (T)0;
  if constexpr (bz_t<T>::is_signed) { if (b == (T)-1) return (T)0; }
  return (T)(a % b);
}
template<typename T> __device__ __forceinline__ T bz_ipow(T a, T b) {
  return bz_cast<T>(pow((f64)a, (f64)b));
}
template<typename T> __device__ __forceinline__ T bz_min(T a, T b) {
  if constexpr (bz_t<T>::is_float) return fmin(a, b); else return b < a ? b : a;
}
template<typename T> __device__ __forceinline__ T bz_max(T a, T b) {
  if constexpr (bz_t<T>::is_float) return fmax(a, b); else return a < b ? b : a;
}
template<typename T> __device__ __forceinline__ T bz_sign(T x) {
  if (x > (T)0) return (T)1;
  if (x < (T)0) return (T)-1;
  return x;
}
template<typename T> __device__ __forceinline__ T bz_iabs(T x) { return x < (T)0 ? (T)(0 - x) : x; }
template<typename T> __device__ __forceinline__ T bz_frac(T x) { return x - floor(x); }
// `periodize` as host code: the remainder moved into [0, |y|) (NaN for y = 0 on
// reals, 0 on ints).
template<typename T> __device__ __forceinline__ T bz_periodize(T x, T y) {
  if constexpr (bz_t<T>::is_float) {
    T r = fmod(x, y);
    if (r < (T)0) r = r + fabs(y);
    return r >= fabs(y) ? (T)0 : r;
  } else {
    T r = bz_rem(x, y);
    if constexpr (bz_t<T>::is_signed) { if (r < (T)0) r = y < (T)0 ? (T)(r - y) : (T)(r + y); }
    return r;
  }
}
// Shifts as host code: a negative count shifts the other way; a count of the width or
// more gives 0 (`>>` of a negative value: -1); `>>` is arithmetic on signed types.
template<typename T> __device__ __forceinline__ T bz_shl_by(T a, u64 m) {
  return m < 8 * sizeof(T) ? (T)((u64)a << m) : (T)0;
}
template<typename T> __device__ __forceinline__ T bz_shr_by(T a, u64 m) {
  return m < 8 * sizeof(T) ? (T)(a >> m) : (T)((a >> (8 * sizeof(T) - 1)) >> 1);
}
template<typename T> __device__ __forceinline__ T bz_shl(T a, T b) {
  const i64 n = (i64)b;
  return n >= 0 ? bz_shl_by(a, (u64)n) : bz_shr_by(a, (u64)0 - (u64)n);
}
template<typename T> __device__ __forceinline__ T bz_shr(T a, T b) {
  const i64 n = (i64)b;
  return n >= 0 ? bz_shr_by(a, (u64)n) : bz_shl_by(a, (u64)0 - (u64)n);
}
template<typename T> __device__ __forceinline__ T bz_angle(T x) {
  if constexpr (bz_t<T>::is_float) return x < (T)0 ? (T)3.14159265358979323846 : (T)0;
  else return x < (T)0 ? (T)3 : (T)0;
}

// Fixed-length vectors live in registers: a struct around an array indexed by constants.
template<typename T, int N> struct bz_v {
  T v[N];
  __device__ __forceinline__ T& operator[](int i) { return v[i]; }
  __device__ __forceinline__ const T& operator[](int i) const { return v[i]; }
};
template<typename T, int N, typename F>
__device__ __forceinline__ auto bz_map1(const bz_v<T, N>& a, F f) {
  bz_v<decltype(f(a.v[0])), N> r;
#pragma unroll
  for (int i = 0; i < N; i++) r.v[i] = f(a.v[i]);
  return r;
}
template<typename T, typename U, int N, typename F>
__device__ __forceinline__ auto bz_map2(const bz_v<T, N>& a, const bz_v<U, N>& b, F f) {
  bz_v<decltype(f(a.v[0], b.v[0])), N> r;
#pragma unroll
  for (int i = 0; i < N; i++) r.v[i] = f(a.v[i], b.v[i]);
  return r;
}
template<typename T, int N>
__device__ __forceinline__ bz_v<T, N> bz_vsel(const bz_v<bool, N>& c, const bz_v<T, N>& a, const bz_v<T, N>& b) {
  bz_v<T, N> r;
#pragma unroll
  for (int i = 0; i < N; i++) r.v[i] = c.v[i] ? a.v[i] : b.v[i];
  return r;
}
template<int N, typename T> __device__ __forceinline__ bz_v<T, N> bz_splat(T x) {
  bz_v<T, N> r;
#pragma unroll
  for (int i = 0; i < N; i++) r.v[i] = x;
  return r;
}
// A lane chosen at run time: 0 outside (as the CPU executor).
template<typename T, int N, typename I> __device__ __forceinline__ T bz_lane(const bz_v<T, N>& a, I i) {
  T r = T{};
#pragma unroll
  for (int k = 0; k < N; k++) if ((i64)i == k) r = a.v[k];
  return r;
}
template<typename T, int N, typename I, typename X> __device__ __forceinline__ void bz_set_lane(bz_v<T, N>& a, I i, X x) {
#pragma unroll
  for (int k = 0; k < N; k++) if ((i64)i == k) a.v[k] = (T)x;
}
template<typename T, int N, typename F> __device__ __forceinline__ T bz_fold(const bz_v<T, N>& a, F f) {
  T r = a.v[0];
#pragma unroll
  for (int i = 1; i < N; i++) r = f(r, a.v[i]);
  return r;
}
"#;
