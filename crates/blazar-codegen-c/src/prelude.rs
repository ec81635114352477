//! The prelude every generated C-family source starts with, in one text for every
//! dialect: scalar type names, complex numbers, conversions with Rust `as` semantics,
//! integer arithmetic with the CPU executor's rules (wrapping, `x / 0 == 0`), the
//! read-modify-write operators and fixed-length vectors. The helpers carry the names
//! that `spell` prints (`bz_div`, `bz_cast`, `bz_cpow`, ...), so scalar expressions are
//! spelled once for every dialect.
//!
//! Qualifiers are macros (`BZ_FN`, `BZ_INLINE`, `BZ_FN_LARGE`, `BZ_UNROLL`,
//! `BZ_ALIGN`), defined at the top for the host (`static inline` with
//! `always_inline`, the C++ standard headers, glibc's vector math under `BZ_MVEC`) and
//! for CUDA (`__device__ __forceinline__`, NVRTC's built-in math), chosen by
//! `__CUDACC__`. The few helpers whose formulas differ by dialect are chosen the same
//! way. Host code is compiled with `-fwrapv -ffp-contract=off`, so signed overflow
//! wraps and no multiply-add is fused, as in Rust. Each dialect appends its memory
//! part (arrays, boundary modes, the error record, atomics, allocators).

/// Types, complex numbers, casts, integer helpers, combine operators, vectors.
pub const PRELUDE_CORE: &str = r#"// ---- Blazar prelude: types, complex numbers, conversions, vectors ----
// One text for every dialect. The dialect's qualifiers are macros: `BZ_INLINE` (a
// member or function always inlined), `BZ_FN` (a free helper always inlined),
// `BZ_FN_LARGE` (a free helper the host compiler may keep out of line), `BZ_UNROLL`
// (unroll the next loop), `BZ_ALIGN(N)`; `__CUDACC__` (NVRTC) selects the CUDA side.
// The scalar types, the same on every target: the suffixes of integer literals
// (`LL`, `ull`) name exactly `i64` and `u64`, so they deduce templates as `i64`.
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
#ifdef __CUDACC__
#define BZ_INLINE __device__ __forceinline__
#define BZ_FN BZ_INLINE
#define BZ_FN_LARGE BZ_INLINE
#define BZ_UNROLL _Pragma("unroll")
#define BZ_ALIGN(N) __align__(N)
#define BZ_F32_LO __int_as_float(0xff800000)
#define BZ_F32_HI __int_as_float(0x7f800000)
#define BZ_F64_LO __longlong_as_double(0xfff0000000000000LL)
#define BZ_F64_HI __longlong_as_double(0x7ff0000000000000LL)
#else
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
#define BZ_INLINE inline __attribute__((always_inline))
#define BZ_FN static BZ_INLINE
#define BZ_FN_LARGE static inline
#define BZ_UNROLL
#define BZ_ALIGN(N)
#define BZ_F32_LO (-HUGE_VALF)
#define BZ_F32_HI HUGE_VALF
#define BZ_F64_LO (-HUGE_VAL)
#define BZ_F64_HI HUGE_VAL
BZ_FN f32 __int_as_float(u32 x) { f32 f; memcpy(&f, &x, 4); return f; }
BZ_FN f64 __longlong_as_double(u64 x) { f64 f; memcpy(&f, &x, 8); return f; }
#endif
// fmin/fmax of both dialects (libm's are calls the C++ compiler cannot vectorise, and
// CUDA's may give either zero): a NaN operand gives the other one; equal operands (+0
// and -0) give the first, as the interpreter and the JIT do.
#ifdef __CUDACC__
// NVRTC turns `b < a ? b : a` into the hardware's min (`min.f32`, which orders -0
// below +0) once the NaN test of `a` folds away (`min(0, x)`), and sees through
// integer selects of the bits too. The select is PTX here, which NVRTC cannot fold;
// ptxas keeps it a compare and a select (FSETP, FSEL: no FMNMX).
BZ_FN f32 bz_self(bool p, f32 b, f32 a) {
  f32 r;
  asm("{ .reg .pred q; setp.ne.u32 q, %3, 0; selp.f32 %0, %1, %2, q; }" : "=f"(r) : "f"(b), "f"(a), "r"((u32)p));
  return r;
}
BZ_FN f64 bz_seld(bool p, f64 b, f64 a) {
  f64 r;
  asm("{ .reg .pred q; setp.ne.u32 q, %3, 0; selp.f64 %0, %1, %2, q; }" : "=d"(r) : "d"(b), "d"(a), "r"((u32)p));
  return r;
}
BZ_FN f32 bz_fminf(f32 a, f32 b) { return bz_self(b < a || a != a, b, a); }
BZ_FN f32 bz_fmaxf(f32 a, f32 b) { return bz_self(b > a || a != a, b, a); }
BZ_FN f64 bz_fmin(f64 a, f64 b) { return bz_seld(b < a || a != a, b, a); }
BZ_FN f64 bz_fmax(f64 a, f64 b) { return bz_seld(b > a || a != a, b, a); }
#else
// The operand is picked by a mask of the bits, not by `p ? b : a`: GCC 13 turns the
// float selects of a scalar min or max (a compare-exchange's) into a branch on the
// compare, taken at random in a sorting network (`benches/cpu/row_sort` on the Xeon:
// 2.2 times the C reference's time, 1.7 to 2.1 with the mask alone; see `bz_sfminf`).
// Loops still vectorise (the mask becomes a vector compare and blend).
BZ_FN f32 bz_self(bool p, f32 b, f32 a) {
  u32 x, y; memcpy(&x, &b, 4); memcpy(&y, &a, 4);
  const u32 m = (u32)0 - (u32)p, r = (x & m) | (y & ~m);
  f32 z; memcpy(&z, &r, 4); return z;
}
BZ_FN f64 bz_seld(bool p, f64 b, f64 a) {
  u64 x, y; memcpy(&x, &b, 8); memcpy(&y, &a, 8);
  const u64 m = (u64)0 - (u64)p, r = (x & m) | (y & ~m);
  f64 z; memcpy(&z, &r, 8); return z;
}
BZ_FN f32 bz_fminf(f32 a, f32 b) { return bz_self((b < a) | (a != a), b, a); }
BZ_FN f32 bz_fmaxf(f32 a, f32 b) { return bz_self((b > a) | (a != a), b, a); }
BZ_FN f64 bz_fmin(f64 a, f64 b) { return bz_seld((b < a) | (a != a), b, a); }
BZ_FN f64 bz_fmax(f64 a, f64 b) { return bz_seld((b > a) | (a != a), b, a); }
// The same for one scalar that no loop vectorises (`selects`: the values of an `if`
// printed as selects): the SSE instructions themselves, which no compiler turns into a
// branch (with the mask GCC 13 still branches on the compare there).
#if defined(__SSE2__)
typedef f32 bz_v4f __attribute__((vector_size(16)));
typedef f64 bz_v2d __attribute__((vector_size(16)));
typedef u32 bz_v4u __attribute__((vector_size(16)));
typedef u64 bz_v2u __attribute__((vector_size(16)));
BZ_FN f32 bz_sfminf(f32 a, f32 b) {
  const bz_v4f A = {a, 0, 0, 0}, B = {b, 0, 0, 0};
  const bz_v4u m = (bz_v4u)__builtin_ia32_minss(B, A), n = (bz_v4u)__builtin_ia32_cmpunordss(A, A);
  return ((bz_v4f)(((bz_v4u)B & n) | (m & ~n)))[0];
}
BZ_FN f32 bz_sfmaxf(f32 a, f32 b) {
  const bz_v4f A = {a, 0, 0, 0}, B = {b, 0, 0, 0};
  const bz_v4u m = (bz_v4u)__builtin_ia32_maxss(B, A), n = (bz_v4u)__builtin_ia32_cmpunordss(A, A);
  return ((bz_v4f)(((bz_v4u)B & n) | (m & ~n)))[0];
}
BZ_FN f64 bz_sfmin(f64 a, f64 b) {
  const bz_v2d A = {a, 0}, B = {b, 0};
  const bz_v2u m = (bz_v2u)__builtin_ia32_minsd(B, A), n = (bz_v2u)__builtin_ia32_cmpunordsd(A, A);
  return ((bz_v2d)(((bz_v2u)B & n) | (m & ~n)))[0];
}
BZ_FN f64 bz_sfmax(f64 a, f64 b) {
  const bz_v2d A = {a, 0}, B = {b, 0};
  const bz_v2u m = (bz_v2u)__builtin_ia32_maxsd(B, A), n = (bz_v2u)__builtin_ia32_cmpunordsd(A, A);
  return ((bz_v2d)(((bz_v2u)B & n) | (m & ~n)))[0];
}
#else
BZ_FN f32 bz_sfminf(f32 a, f32 b) { return bz_fminf(a, b); }
BZ_FN f32 bz_sfmaxf(f32 a, f32 b) { return bz_fmaxf(a, b); }
BZ_FN f64 bz_sfmin(f64 a, f64 b) { return bz_fmin(a, b); }
BZ_FN f64 bz_sfmax(f64 a, f64 b) { return bz_fmax(a, b); }
#endif
#endif
BZ_FN f32 bz_fmin(f32 a, f32 b) { return bz_fminf(a, b); }
BZ_FN f32 bz_fmax(f32 a, f32 b) { return bz_fmaxf(a, b); }

struct BZ_ALIGN(8) c32 { f32 re, im; };
struct BZ_ALIGN(16) c64 { f64 re, im; };

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
BZ_LIM(f32, BZ_F32_LO, BZ_F32_HI)
BZ_LIM(f64, BZ_F64_LO, BZ_F64_HI)

// Complex `^` (blazar_ops::scalar): an integer exponent up to 65536 in magnitude
// multiplies (num-complex's `powi`, squaring for squaring), `0 ^ w` is 0 for re(w) > 0
// and infinite otherwise; other powers take the dialect's formula below.
#define BZ_CPOW_EXACT(C, R) \
    if (b.im == (R)0 && b.re == trunc(b.re) && fabs(b.re) <= (R)65536) \
      return bz_cpowi(a, (i32)b.re); \
    if (a.re == (R)0 && a.im == (R)0) \
      return C{b.re > (R)0 ? (R)0 : bz_lim<R>::hi(), (R)0};
// Complex arithmetic and functions: num-complex 0.4, formula by formula; where the
// dialects differ (`|z|`, `exp` and `pow` at infinities and zero exponents), the host
// follows num-complex to the corner case and the device takes the plain formula.
#ifdef __CUDACC__
#define BZ_CABS(C, R) BZ_FN R bz_cabs(C z) { return hypot(z.re, z.im); }
#define BZ_CEXP(C, R) BZ_FN C bz_cexp(C z) { return bz_polar(exp(z.re), z.im); }
#define BZ_CPOW(C, R) BZ_FN C bz_cpow(C a, C b) { \
    BZ_CPOW_EXACT(C, R) \
    if (b.im == 0) return bz_polar(pow(bz_cabs(a), b.re), bz_carg(a) * b.re); \
    return bz_cexp(bz_clog(a) * b); }
#else
#define BZ_CABS(C, R)
#define BZ_CEXP(C, R) BZ_FN_LARGE C bz_cexp(C z) { \
    R re = z.re, im = z.im; \
    if (isinf(re)) { \
      if (re < (R)0) { if (!isfinite(im)) return C{(R)0, (R)0}; } \
      else if (im == (R)0 || !isfinite(im)) { if (isinf(im)) im = (R)NAN; return C{re, im}; } \
    } else if (isnan(re) && im == (R)0) { return z; } \
    return bz_polar(exp(re), im); }
#define BZ_CPOW(C, R) BZ_FN_LARGE C bz_cpow(C a, C b) { \
    BZ_CPOW_EXACT(C, R) \
    if (b.im == (R)0) { \
      if (b.re == (R)0) return C{(R)1, (R)0}; \
      return bz_polar(pow(bz_cabs(a), b.re), bz_carg(a) * b.re); } \
    return bz_cexp(b * bz_clog(a)); }
// |z|: f32 parts squared and summed exactly in f64, rounded once (as the executor).
BZ_FN f32 bz_cabs(c32 z) {
  if (isinf(z.re) || isinf(z.im)) return HUGE_VALF;
  f64 re = (f64)z.re, im = (f64)z.im;
  return (f32)sqrt(re * re + im * im);
}
BZ_FN f64 bz_cabs(c64 z) { return hypot(z.re, z.im); }
#endif
#define BZ_COMPLEX(C, R) \
  BZ_FN C operator+(C a, C b) { return C{a.re + b.re, a.im + b.im}; } \
  BZ_FN C operator-(C a, C b) { return C{a.re - b.re, a.im - b.im}; } \
  BZ_FN C operator-(C a) { return C{-a.re, -a.im}; } \
  BZ_FN C operator*(C a, C b) { \
    return C{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; } \
  BZ_FN C operator/(C a, C b) { \
    R n = b.re * b.re + b.im * b.im; \
    return C{(a.re * b.re + a.im * b.im) / n, (a.im * b.re - a.re * b.im) / n}; } \
  BZ_FN bool operator==(C a, C b) { return a.re == b.re && a.im == b.im; } \
  BZ_FN bool operator!=(C a, C b) { return !(a == b); } \
  BZ_CABS(C, R) \
  BZ_FN R bz_carg(C z) { return atan2(z.im, z.re); } \
  BZ_FN C bz_polar(R r, R t) { return C{r * cos(t), r * sin(t)}; } \
  BZ_FN C bz_conj(C z) { return C{z.re, -z.im}; } \
  BZ_CEXP(C, R) \
  BZ_FN C bz_clog(C z) { return C{log(bz_cabs(z)), bz_carg(z)}; } \
  BZ_FN_LARGE C bz_csqrt(C z) { \
    if (z.im == (R)0) { \
      if (!signbit(z.re)) return C{sqrt(z.re), z.im}; \
      R s = sqrt(-z.re); return C{(R)0, signbit(z.im) ? -s : s}; } \
    if (z.re == (R)0) { R x = sqrt(fabs(z.im) / (R)2); return C{x, signbit(z.im) ? -x : x}; } \
    return bz_polar(sqrt(bz_cabs(z)), bz_carg(z) / (R)2); } \
  BZ_FN C bz_csin(C z) { return C{sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im)}; } \
  BZ_FN C bz_ccos(C z) { return C{cos(z.re) * cosh(z.im), -sin(z.re) * sinh(z.im)}; } \
  BZ_FN C bz_csinh(C z) { return C{sinh(z.re) * cos(z.im), cosh(z.re) * sin(z.im)}; } \
  BZ_FN C bz_ccosh(C z) { return C{cosh(z.re) * cos(z.im), sinh(z.re) * sin(z.im)}; } \
  BZ_FN C bz_ctan(C z) { \
    R a = z.re + z.re, b = z.im + z.im, d = cos(a) + cosh(b); return C{sin(a) / d, sinh(b) / d}; } \
  BZ_FN C bz_ctanh(C z) { \
    R a = z.re + z.re, b = z.im + z.im, d = cosh(a) + cos(b); return C{sinh(a) / d, sin(b) / d}; } \
  BZ_FN_LARGE C bz_cpowi(C a, i32 n) { \
    if (n < 0) { R s = a.re * a.re + a.im * a.im; a = C{a.re / s, -a.im / s}; } \
    u32 e = n < 0 ? (u32)(-n) : (u32)n; \
    if (e == 0u) return C{(R)1, (R)0}; \
    while ((e & 1u) == 0u) { a = a * a; e >>= 1; } \
    if (e == 1u) return a; \
    C acc = a; \
    while (e > 1u) { e >>= 1; a = a * a; if ((e & 1u) == 1u) acc = acc * a; } \
    return acc; } \
  BZ_CPOW(C, R)
BZ_COMPLEX(c32, f32)
BZ_COMPLEX(c64, f64)

// C-style conversions with Rust `as` semantics: float to int truncates and saturates
// (NaN gives 0), ints wrap, bool is `x != 0`, reals become complex with im = 0.
template<typename D, typename S> BZ_FN D bz_cast(S x) {
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
#ifdef __CUDACC__
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
#else
  } else if constexpr (bz_t<S>::is_bool) {
    // A select, not `(D)x`: GCC finds no vector type for a bool converted to a float,
    // and then leaves a comparison's loop (`x > 128` as 0/1 reals) unvectorised.
    return x ? (D)1 : (D)0;
#endif
  } else if constexpr (bz_t<D>::is_float && bz_t<S>::is_int) {
    // GCC folds `(float)(int)x` to `trunc(x)` under -fno-trapping-math, which keeps the
    // sign of a zero (`int8(-0.0)` would become -0.0, and `1 / int8(-0.0)` -Inf): the
    // select gives +0, as every int converted to a real is.
    const D r = (D)x;
    return r == (D)0 ? (D)0 : r;
  } else if constexpr (bz_t<D>::is_int && bz_t<S>::is_float) {
    // Selects, not branches (a histogram's `bins[int(x)]` runs 1.5x faster): `lo` and
    // `hi + 1` (a power of two) are exact in S; every x in [lo, hi + 1) converts
    // exactly, NaN fails both tests.
    const S lo = (S)bz_lim<D>::lo(), top = (S)(bz_lim<D>::hi() / 2 + 1) * (S)2;
    const bool in = x >= lo && x < top;
    const D r = (D)(in ? x : (S)0);
    return in ? r : (x > (S)0 ? bz_lim<D>::hi() : (x != x ? (D)0 : bz_lim<D>::lo()));
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
template<typename T> BZ_FN typename bz_count_t<(sizeof(T) > 4)>::t
bz_trips(T lo, T st, T hi) {
  typedef typename bz_count_t<(sizeof(T) > 4)>::t U;
  if ((T)0 < st) return lo <= hi ? (U)((U)hi - (U)lo) / (U)st + 1 : (U)0;
  if (st < (T)0) return hi <= lo ? (U)((U)lo - (U)hi) / (U)((U)0 - (U)st) + 1 : (U)0;
  return hi <= lo ? ~(U)0 : (U)0;
}
// `v + st`, wrapping (the last step of a loop may pass the type's range).
template<typename T> BZ_FN T bz_step(T v, T st) {
  typedef typename bz_count_t<(sizeof(T) > 4)>::t U;
  return (T)((U)v + (U)st);
}

// Integer arithmetic as in the CPU executor: wrapping, x / 0 == 0, x % 0 == 0.
template<typename T> BZ_FN T bz_div(T a, T b) {
  if (b == (T)0) return (T)0;
  if constexpr (bz_t<T>::is_signed) { if (b == (T)-1) return (T)(0ull - (u64)(i64)a); }
  return (T)(a / b);
}
template<typename T> BZ_FN T bz_rem(T a, T b) {
  if (b == (T)0) return (T)0;
  if constexpr (bz_t<T>::is_signed) { if (b == (T)-1) return (T)0; }
  return (T)(a % b);
}
template<typename T> BZ_FN T bz_ipow(T a, T b) { return bz_cast<T>(pow((f64)a, (f64)b)); }
// `a ^ b` on reals as the host computes it: in f64, rounded once to the type (f32
// `powf` is up to 1 ulp away from that). GCC turns `pow(x, 0.5)` into `sqrt(x)`, which
// differs at -0 and -Inf (C's pow gives +0 and +Inf there): the select puts them back.
template<typename T> BZ_FN T bz_pow(T a, T b) {
#if defined(__CUDACC__) && !defined(BZ_DETERMINISTIC)
  // On the GPU an f32 power is CUDA's `powf` (within its documented ulp bound of the
  // host's): the f64 `pow` costs 2.4 times as much in a memory-bound kernel.
  if constexpr (sizeof(T) == 4) {
    const T r = powf(a, b);
    return b == (T)0.5 && (a == (T)0 || a == -(T)BZ_F64_HI) ? fabsf(a) : r;
  }
#endif
  const f64 x = (f64)a, y = (f64)b;
  const f64 r = pow(x, y);
  return (T)(y == 0.5 && (x == 0.0 || x == -(f64)BZ_F64_HI) ? fabs(x) : r);
}
template<typename T> BZ_FN T bz_min(T a, T b) {
  if constexpr (bz_t<T>::is_float) return bz_fmin(a, b); else return b < a ? b : a;
}
template<typename T> BZ_FN T bz_max(T a, T b) {
  if constexpr (bz_t<T>::is_float) return bz_fmax(a, b); else return a < b ? b : a;
}
template<typename T> BZ_FN T bz_sign(T x) {
  if (x > (T)0) return (T)1;
  if (x < (T)0) return (T)-1;
  return x;
}
template<typename T> BZ_FN T bz_iabs(T x) { return x < (T)0 ? (T)(0 - x) : x; }
template<typename T> BZ_FN T bz_frac(T x) { return x - floor(x); }
// `periodize` as host code: the remainder moved into [0, |y|) (NaN for y = 0 on
// reals, 0 on ints).
template<typename T> BZ_FN T bz_periodize(T x, T y) {
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
template<typename T> BZ_FN T bz_shl_by(T a, u64 m) {
  return m < 8 * sizeof(T) ? (T)((u64)a << m) : (T)0;
}
template<typename T> BZ_FN T bz_shr_by(T a, u64 m) {
  return m < 8 * sizeof(T) ? (T)(a >> m) : (T)((a >> (8 * sizeof(T) - 1)) >> 1);
}
template<typename T> BZ_FN T bz_shl(T a, T b) {
  const i64 n = (i64)b;
  return n >= 0 ? bz_shl_by(a, (u64)n) : bz_shr_by(a, (u64)0 - (u64)n);
}
template<typename T> BZ_FN T bz_shr(T a, T b) {
  const i64 n = (i64)b;
  return n >= 0 ? bz_shr_by(a, (u64)n) : bz_shl_by(a, (u64)0 - (u64)n);
}
template<typename T> BZ_FN T bz_angle(T x) {
  if constexpr (bz_t<T>::is_float) return x < (T)0 ? (T)3.14159265358979323846 : (T)0;
  else return x < (T)0 ? (T)3 : (T)0;
}

// Read-modify-write operators: 0 add, 1 sub, 2 mul, 3 div, 4 pow, 5 min, 6 max,
// 7 and, 8 or, 9 xor (bitwise ones leave floats and complex values unchanged;
// min/max leave complex values unchanged).
template<int OP, typename T> BZ_FN T bz_combine(T a, T x) {
  if constexpr (OP == 0) return (T)(a + x);
  else if constexpr (OP == 1) return (T)(a - x);
  else if constexpr (OP == 2) return (T)(a * x);
  else if constexpr (OP == 3) { if constexpr (bz_t<T>::is_int) return bz_div(a, x); else return a / x; }
  else if constexpr (OP == 4) {
    if constexpr (bz_t<T>::is_int) return bz_ipow(a, x);
    else if constexpr (bz_t<T>::is_complex) return bz_cpow(a, x);
    else return bz_pow(a, x);
  }
  else if constexpr (OP == 5) { if constexpr (bz_t<T>::is_complex) return a; else return bz_min(a, x); }
  else if constexpr (OP == 6) { if constexpr (bz_t<T>::is_complex) return a; else return bz_max(a, x); }
  else if constexpr (!bz_t<T>::is_int) return a;
  else if constexpr (OP == 7) return (T)(a & x);
  else if constexpr (OP == 8) return (T)(a | x);
  else return (T)(a ^ x);
}
template<int OP, typename T> BZ_FN T bz_identity() {
  if constexpr (OP == 2) return bz_cast<T>(1);
  else if constexpr (OP == 7) return bz_cast<T>((i64)-1);
  else if constexpr (OP == 5) { if constexpr (bz_t<T>::is_complex) return T{}; else return bz_lim<T>::hi(); }
  else if constexpr (OP == 6) { if constexpr (bz_t<T>::is_complex) return T{}; else return bz_lim<T>::lo(); }
  else return T{};
}

// Fixed-length vectors live in registers: a struct around an array indexed by constants.
template<typename T, int N> struct bz_v {
  T v[N];
  BZ_INLINE T& operator[](int i) { return v[i]; }
  BZ_INLINE const T& operator[](int i) const { return v[i]; }
};
template<typename T, int N, typename F> BZ_FN auto bz_map1(const bz_v<T, N>& a, F f) {
  bz_v<decltype(f(a.v[0])), N> r;
  BZ_UNROLL for (int i = 0; i < N; i++) r.v[i] = f(a.v[i]);
  return r;
}
template<typename T, typename U, int N, typename F>
BZ_FN auto bz_map2(const bz_v<T, N>& a, const bz_v<U, N>& b, F f) {
  bz_v<decltype(f(a.v[0], b.v[0])), N> r;
  BZ_UNROLL for (int i = 0; i < N; i++) r.v[i] = f(a.v[i], b.v[i]);
  return r;
}
template<typename T, int N>
BZ_FN bz_v<T, N> bz_vsel(const bz_v<bool, N>& c, const bz_v<T, N>& a, const bz_v<T, N>& b) {
  bz_v<T, N> r;
  BZ_UNROLL for (int i = 0; i < N; i++) r.v[i] = c.v[i] ? a.v[i] : b.v[i];
  return r;
}
template<int N, typename T> BZ_FN bz_v<T, N> bz_splat(T x) {
  bz_v<T, N> r;
  BZ_UNROLL for (int i = 0; i < N; i++) r.v[i] = x;
  return r;
}
// A lane chosen at run time: 0 outside (as the CPU executor).
template<typename T, int N, typename I> BZ_FN T bz_lane(const bz_v<T, N>& a, I i) {
  T r = T{};
  BZ_UNROLL for (int k = 0; k < N; k++) if ((i64)i == k) r = a.v[k];
  return r;
}
template<typename T, int N, typename I, typename X> BZ_FN void bz_set_lane(bz_v<T, N>& a, I i, X x) {
  BZ_UNROLL for (int k = 0; k < N; k++) if ((i64)i == k) a.v[k] = (T)x;
}
template<typename T, int N, typename F> BZ_FN T bz_fold(const bz_v<T, N>& a, F f) {
  T r = a.v[0];
  BZ_UNROLL for (int i = 1; i < N; i++) r = f(r, a.v[i]);
  return r;
}
"#;
