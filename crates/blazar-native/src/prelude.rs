//! The host C++ prelude, part 1: scalar types, complex numbers, conversions, integer
//! arithmetic and fixed-length vectors, with the CPU executor's semantics.
//!
//! The helpers carry the names that `blazar_codegen_c::spell` prints (`bz_div`,
//! `bz_cast`, `bz_cpow`, ...), so scalar expressions are spelled once for both targets.
//! Complex functions follow num-complex 0.4 formula by formula (corner cases included),
//! and `|z|` of a `c32` is computed as the executor does (squares summed in f64). The
//! code is compiled with `-fwrapv -ffp-contract=off`, so signed overflow wraps and no
//! multiply-add is fused, as in Rust.

/// Types, complex numbers, casts, integer helpers, vectors.
pub const PRELUDE_CORE: &str = r#"// ---- Blazar native prelude: types, complex numbers, conversions, vectors ----
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#ifdef BZ_MVEC
// glibc's vector math library: these declarations give the libm functions their SIMD
// variants, so a loop over array elements calls them several lanes at a time.
extern "C" {
#define BZ_SIMD(R, F, ...) __attribute__((simd("notinbranch"))) R F(__VA_ARGS__) noexcept;
#define BZ_SIMD1(F) BZ_SIMD(float, F##f, float) BZ_SIMD(double, F, double)
#define BZ_SIMD2(F) BZ_SIMD(float, F##f, float, float) BZ_SIMD(double, F, double, double)
BZ_SIMD1(sin) BZ_SIMD1(cos) BZ_SIMD1(tan) BZ_SIMD1(asin) BZ_SIMD1(acos) BZ_SIMD1(atan)
BZ_SIMD1(sinh) BZ_SIMD1(cosh) BZ_SIMD1(tanh) BZ_SIMD1(asinh) BZ_SIMD1(acosh) BZ_SIMD1(atanh)
BZ_SIMD1(exp) BZ_SIMD1(exp2) BZ_SIMD1(exp10) BZ_SIMD1(expm1) BZ_SIMD1(log) BZ_SIMD1(log2)
BZ_SIMD1(log10) BZ_SIMD1(log1p) BZ_SIMD1(cbrt) BZ_SIMD1(erf) BZ_SIMD1(erfc)
BZ_SIMD2(atan2) BZ_SIMD2(pow) BZ_SIMD2(hypot)
#undef BZ_SIMD2
#undef BZ_SIMD1
#undef BZ_SIMD
}
#endif
using namespace std;
typedef int8_t i8;
typedef int16_t i16;
typedef int32_t i32;
typedef int64_t i64;
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef float f32;
typedef double f64;
#define BZ_INLINE inline __attribute__((always_inline))
static BZ_INLINE f32 __int_as_float(u32 x) { f32 f; memcpy(&f, &x, 4); return f; }
static BZ_INLINE f64 __longlong_as_double(u64 x) { f64 f; memcpy(&f, &x, 8); return f; }
// fmin/fmax inline (libm's are calls the compiler cannot vectorise): a NaN operand
// gives the other one; equal operands (+0 and -0) give the second, as x86 libm does.
// `a < b ? a : b` is one minss (the second operand when unordered), then a select.
static BZ_INLINE f32 bz_fminf(f32 a, f32 b) { const f32 m = a < b ? a : b; return b != b ? a : m; }
static BZ_INLINE f32 bz_fmaxf(f32 a, f32 b) { const f32 m = a > b ? a : b; return b != b ? a : m; }
static BZ_INLINE f64 bz_fmin(f64 a, f64 b) { const f64 m = a < b ? a : b; return b != b ? a : m; }
static BZ_INLINE f64 bz_fmax(f64 a, f64 b) { const f64 m = a > b ? a : b; return b != b ? a : m; }
static BZ_INLINE f32 bz_fmin(f32 a, f32 b) { return bz_fminf(a, b); }
static BZ_INLINE f32 bz_fmax(f32 a, f32 b) { return bz_fmaxf(a, b); }
#define fminf bz_fminf
#define fmaxf bz_fmaxf
#define fmin bz_fmin
#define fmax bz_fmax

struct c32 { f32 re, im; };
struct c64 { f64 re, im; };

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
  static BZ_INLINE T lo() { return LO; } static BZ_INLINE T hi() { return HI; } };
BZ_LIM(i8, -128, 127)
BZ_LIM(i16, -32768, 32767)
BZ_LIM(i32, (-2147483647 - 1), 2147483647)
BZ_LIM(i64, (-9223372036854775807LL - 1), 9223372036854775807LL)
BZ_LIM(u8, 0, 255)
BZ_LIM(u16, 0, 65535)
BZ_LIM(u32, 0u, 4294967295u)
BZ_LIM(u64, 0ull, 18446744073709551615ull)
BZ_LIM(f32, -HUGE_VALF, HUGE_VALF)
BZ_LIM(f64, -HUGE_VAL, HUGE_VAL)

// Complex arithmetic and functions: num-complex 0.4, formula by formula.
#define BZ_COMPLEX(C, R) \
  static BZ_INLINE C operator+(C a, C b) { return C{a.re + b.re, a.im + b.im}; } \
  static BZ_INLINE C operator-(C a, C b) { return C{a.re - b.re, a.im - b.im}; } \
  static BZ_INLINE C operator-(C a) { return C{-a.re, -a.im}; } \
  static BZ_INLINE C operator*(C a, C b) { \
    return C{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; } \
  static BZ_INLINE C operator/(C a, C b) { \
    R n = b.re * b.re + b.im * b.im; \
    return C{(a.re * b.re + a.im * b.im) / n, (a.im * b.re - a.re * b.im) / n}; } \
  static BZ_INLINE bool operator==(C a, C b) { return a.re == b.re && a.im == b.im; } \
  static BZ_INLINE bool operator!=(C a, C b) { return !(a == b); } \
  static BZ_INLINE R bz_carg(C z) { return atan2(z.im, z.re); } \
  static BZ_INLINE C bz_polar(R r, R t) { return C{r * cos(t), r * sin(t)}; } \
  static BZ_INLINE C bz_conj(C z) { return C{z.re, -z.im}; } \
  static inline C bz_cexp(C z) { \
    R re = z.re, im = z.im; \
    if (isinf(re)) { \
      if (re < (R)0) { if (!isfinite(im)) return C{(R)0, (R)0}; } \
      else if (im == (R)0 || !isfinite(im)) { if (isinf(im)) im = (R)NAN; return C{re, im}; } \
    } else if (isnan(re) && im == (R)0) { return z; } \
    return bz_polar(exp(re), im); } \
  static BZ_INLINE C bz_clog(C z) { return C{log(bz_cabs(z)), bz_carg(z)}; } \
  static inline C bz_csqrt(C z) { \
    if (z.im == (R)0) { \
      if (!signbit(z.re)) return C{sqrt(z.re), z.im}; \
      R s = sqrt(-z.re); return C{(R)0, signbit(z.im) ? -s : s}; } \
    if (z.re == (R)0) { R x = sqrt(fabs(z.im) / (R)2); return C{x, signbit(z.im) ? -x : x}; } \
    return bz_polar(sqrt(bz_cabs(z)), bz_carg(z) / (R)2); } \
  static BZ_INLINE C bz_csin(C z) { return C{sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im)}; } \
  static BZ_INLINE C bz_ccos(C z) { return C{cos(z.re) * cosh(z.im), -sin(z.re) * sinh(z.im)}; } \
  static BZ_INLINE C bz_csinh(C z) { return C{sinh(z.re) * cos(z.im), cosh(z.re) * sin(z.im)}; } \
  static BZ_INLINE C bz_ccosh(C z) { return C{cosh(z.re) * cos(z.im), sinh(z.re) * sin(z.im)}; } \
  static BZ_INLINE C bz_ctan(C z) { \
    R a = z.re + z.re, b = z.im + z.im, d = cos(a) + cosh(b); return C{sin(a) / d, sinh(b) / d}; } \
  static BZ_INLINE C bz_ctanh(C z) { \
    R a = z.re + z.re, b = z.im + z.im, d = cosh(a) + cos(b); return C{sinh(a) / d, sin(b) / d}; } \
  static inline C bz_cpow(C a, C b) { \
    if (b.im == (R)0) { \
      if (b.re == (R)0) return C{(R)1, (R)0}; \
      return bz_polar(pow(bz_cabs(a), b.re), bz_carg(a) * b.re); } \
    return bz_cexp(b * bz_clog(a)); }
// |z|: f32 parts squared and summed exactly in f64, rounded once (as the executor).
static BZ_INLINE f32 bz_cabs(c32 z) {
  if (isinf(z.re) || isinf(z.im)) return HUGE_VALF;
  f64 re = (f64)z.re, im = (f64)z.im;
  return (f32)sqrt(re * re + im * im);
}
static BZ_INLINE f64 bz_cabs(c64 z) { return hypot(z.re, z.im); }
BZ_COMPLEX(c32, f32)
BZ_COMPLEX(c64, f64)

// C-style conversions with Rust `as` semantics: float to int truncates and saturates
// (NaN gives 0), ints wrap, bool is `x != 0`, reals become complex with im = 0.
template<typename D, typename S> static BZ_INLINE D bz_cast(S x) {
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
  } else if constexpr (bz_t<S>::is_bool) {
    // A select, not `(D)x`: GCC finds no vector type for a bool converted to a float,
    // and then leaves a comparison's loop (`x > 128` as 0/1 reals) unvectorised.
    return x ? (D)1 : (D)0;
  } else if constexpr (bz_t<D>::is_int && bz_t<S>::is_float) {
    if (x != x) return (D)0;
    if (x <= (S)bz_lim<D>::lo()) return bz_lim<D>::lo();
    if (x >= (S)bz_lim<D>::hi()) return bz_lim<D>::hi();
    return (D)x;
  } else {
    return (D)x;
  }
}

// Integer arithmetic as in the CPU executor: wrapping, x / 0 == 0, x % 0 == 0.
template<typename T> static BZ_INLINE T bz_div(T a, T b) {
  if (b == (T)0) return (T)0;
  if constexpr (bz_t<T>::is_signed) { if (b == (T)-1) return (T)(0ull - (u64)(i64)a); }
  return (T)(a / b);
}
template<typename T> static BZ_INLINE T bz_rem(T a, T b) {
  if (b == (T)0) return (T)0;
  if constexpr (bz_t<T>::is_signed) { if (b == (T)-1) return (T)0; }
  return (T)(a % b);
}
template<typename T> static BZ_INLINE T bz_ipow(T a, T b) { return bz_cast<T>(pow((f64)a, (f64)b)); }
template<typename T> static BZ_INLINE T bz_min(T a, T b) {
  if constexpr (bz_t<T>::is_float) return fmin(a, b); else return b < a ? b : a;
}
template<typename T> static BZ_INLINE T bz_max(T a, T b) {
  if constexpr (bz_t<T>::is_float) return fmax(a, b); else return a < b ? b : a;
}
template<typename T> static BZ_INLINE T bz_sign(T x) {
  if (x > (T)0) return (T)1;
  if (x < (T)0) return (T)-1;
  return x;
}
template<typename T> static BZ_INLINE T bz_iabs(T x) { return x < (T)0 ? (T)(0 - x) : x; }
template<typename T> static BZ_INLINE T bz_frac(T x) { return x - floor(x); }
// `periodize` as host code: the remainder moved into [0, |y|) (NaN for y = 0 on
// reals, 0 on ints).
template<typename T> static BZ_INLINE T bz_periodize(T x, T y) {
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
template<typename T> static BZ_INLINE T bz_shl_by(T a, u64 m) {
  return m < 8 * sizeof(T) ? (T)((u64)a << m) : (T)0;
}
template<typename T> static BZ_INLINE T bz_shr_by(T a, u64 m) {
  return m < 8 * sizeof(T) ? (T)(a >> m) : (T)((a >> (8 * sizeof(T) - 1)) >> 1);
}
template<typename T> static BZ_INLINE T bz_shl(T a, T b) {
  const i64 n = (i64)b;
  return n >= 0 ? bz_shl_by(a, (u64)n) : bz_shr_by(a, (u64)0 - (u64)n);
}
template<typename T> static BZ_INLINE T bz_shr(T a, T b) {
  const i64 n = (i64)b;
  return n >= 0 ? bz_shr_by(a, (u64)n) : bz_shl_by(a, (u64)0 - (u64)n);
}
template<typename T> static BZ_INLINE T bz_angle(T x) {
  if constexpr (bz_t<T>::is_float) return x < (T)0 ? (T)3.14159265358979323846 : (T)0;
  else return x < (T)0 ? (T)3 : (T)0;
}

// Fixed-length vectors: a struct around an array indexed by constants.
template<typename T, int N> struct bz_v {
  T v[N];
  BZ_INLINE T& operator[](int i) { return v[i]; }
  BZ_INLINE const T& operator[](int i) const { return v[i]; }
};
template<typename T, int N, typename F> static BZ_INLINE auto bz_map1(const bz_v<T, N>& a, F f) {
  bz_v<decltype(f(a.v[0])), N> r;
  for (int i = 0; i < N; i++) r.v[i] = f(a.v[i]);
  return r;
}
template<typename T, typename U, int N, typename F>
static BZ_INLINE auto bz_map2(const bz_v<T, N>& a, const bz_v<U, N>& b, F f) {
  bz_v<decltype(f(a.v[0], b.v[0])), N> r;
  for (int i = 0; i < N; i++) r.v[i] = f(a.v[i], b.v[i]);
  return r;
}
template<typename T, int N>
static BZ_INLINE bz_v<T, N> bz_vsel(const bz_v<bool, N>& c, const bz_v<T, N>& a, const bz_v<T, N>& b) {
  bz_v<T, N> r;
  for (int i = 0; i < N; i++) r.v[i] = c.v[i] ? a.v[i] : b.v[i];
  return r;
}
template<int N, typename T> static BZ_INLINE bz_v<T, N> bz_splat(T x) {
  bz_v<T, N> r;
  for (int i = 0; i < N; i++) r.v[i] = x;
  return r;
}
// A lane chosen at run time: 0 outside (as the CPU executor).
template<typename T, int N, typename I> static BZ_INLINE T bz_lane(const bz_v<T, N>& a, I i) {
  T r = T{};
  for (int k = 0; k < N; k++) if ((i64)i == k) r = a.v[k];
  return r;
}
template<typename T, int N, typename I, typename X> static BZ_INLINE void bz_set_lane(bz_v<T, N>& a, I i, X x) {
  for (int k = 0; k < N; k++) if ((i64)i == k) a.v[k] = (T)x;
}
template<typename T, int N, typename F> static BZ_INLINE T bz_fold(const bz_v<T, N>& a, F f) {
  T r = a.v[0];
  for (int i = 1; i < N; i++) r = f(r, a.v[i]);
  return r;
}
"#;
