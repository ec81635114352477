// a^c of floats through a short f64 evaluation, for positive finite a and a
// result well inside f64's range: within about 2^-42 of the exact power before its one
// rounding to float, so at most 1 ulp from the host's (float)pow((double)a, (double)c)
// (CUDA's powf: its documented bound). Elsewhere CUDA's powf.
__device__ __forceinline__ float bz_powf_f64(float a, float c) {
  // Positive finite floats (subnormals too: exact and normal in f64).
  if (__float_as_uint(a) - 1u < 0x7f7fffffu) {
    // a = 2^e * m, m in [sqrt(1/2), sqrt(2))
    const double ad = (double)a;
    const int hi = __double2hiint(ad);
    const int big = (hi & 0x000fffff) >= 0x6a09e;
    const int e = (hi >> 20) - 1023 + big;
    const double md = __hiloint2double((hi & 0x000fffff) | (big ? 0x3fe00000 : 0x3ff00000), __double2loint(ad));
    const double num = md - 1.0, den = md + 1.0;
    // ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716
    double r = (double)__fdividef(1.0f, (float)den);
    r = fma(r, fma(-den, r, 1.0), r);
    const double s = num * r, s2 = s * s;
    double p = 2.0 / 15;
    p = fma(p, s2, 2.0 / 13);
    p = fma(p, s2, 2.0 / 11);
    p = fma(p, s2, 2.0 / 9);
    p = fma(p, s2, 2.0 / 7);
    p = fma(p, s2, 2.0 / 5);
    p = fma(p, s2, 2.0 / 3);
    const double lnm = fma(s * s2, p, 2.0 * s);
    const double t = (double)c * fma((double)e, 6.93147180559945286227e-01, lnm);
    if (fabs(t) < 700.0) {
      const double n = rint(t * 1.44269504088896338700e+00);
      double x = fma(-n, 6.93147180369123816490e-01, t);
      x = fma(-n, 1.90821492927058770002e-10, x);
      // exp x, |x| <= 0.3466: Taylor to x^11
      double q = 1.0 / 39916800;
      q = fma(q, x, 1.0 / 3628800);
      q = fma(q, x, 1.0 / 362880);
      q = fma(q, x, 1.0 / 40320);
      q = fma(q, x, 1.0 / 5040);
      q = fma(q, x, 1.0 / 720);
      q = fma(q, x, 1.0 / 120);
      q = fma(q, x, 1.0 / 24);
      q = fma(q, x, 1.0 / 6);
      q = fma(q, x, 0.5);
      q = fma(q, x, 1.0);
      q = fma(q, x, 1.0);
      return (float)(q * __hiloint2double((__double2int_rn(n) + 1023) << 20, 0));
    }
  }
  return powf(a, c);
}
