// bbx/numeric/special_math.hpp — the scalar functions of `cute.math` beyond bbx/numeric/math.hpp,
// precise (IEEE results where the target's library gives them):
//
//   trigonometric   tan, asin, acos, atan, atan2(y, x), sincos -> (sin, cos)
//   hyperbolic      sinh, cosh, asinh, acosh, atanh
//   exponential     expm1, log1p, log10, cbrt, pow(x, y), fpowi(x, n), erfc
//   rounding        trunc, round (half away from zero), roundeven (half to even)
//   other           copysign, fma, rem (fmod: the sign of x), rcp (1 / x)
//   classification  isnan, isinf, isfinite, isnormal
//   (all in namespace bbx::scalar; float and double, 16-bit floats compute in float)
//
// Where each comes from:
//   host (the CPU simulator) and CUDA: the C library names (libm; CUDA's libdevice);
//   AMD with ROCm: the same names from HIP's device math (ROCm's ocml);
//   AMD without ROCm (header-free, `-nogpulib`: compile checks): float through clang builtins
//   that lower to instructions (exp2/log2/sqrt/fma...) and the formulas of `detail::portable`
//   (accuracy stated per function, checked on the host against float64 by
//   runtime_cpp/tests/special_math_test.cpp); double through ROCm's ocml entry points, which a
//   header-free build declares but cannot link (double transcendentals need ROCm's library).
#pragma once

#include <cmath>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/platform/libm_hooks.hpp"

namespace bbx {

namespace detail::portable {
// float formulas from instruction-level operations only (clang builtins that every target
// lowers without a library: exp, exp2, log, log2, sqrt, fma, floor, fabs, copysign, ldexp,
// frexp, sin, cos). Errors are in float ulps of the result, measured by
// runtime_cpp/tests/special_math_test.cpp against float64 on 2^20 points per function.
inline constexpr float kPi = 3.14159265358979323846f;
inline constexpr float kPi2 = 1.57079632679489661923f;
inline constexpr float kPi4 = 0.78539816339744830962f;
inline constexpr float kLn2 = 0.69314718055994530942f;
// pi/2 and pi/4 as float + the float nearest to the rest (for sums that keep the low bits)
inline constexpr float kPi2Lo = -4.37113900018624283e-8f;
inline constexpr float kPi4Lo = -2.18556950009312141e-8f;

// atan on [0, inf): reduction to |t| <= tan(pi/8) and an odd minimax polynomial (<= 3 ulp).
BBX_HOST_DEVICE float atan_pos(float a) {
  float base = 0.0f, base_lo = 0.0f, t = a;
  if (a > 2.414213562373095f) {
    base = kPi2;
    base_lo = kPi2Lo;
    t = -1.0f / a;
  } else if (a > 0.4142135623730950f) {
    base = kPi4;
    base_lo = kPi4Lo;
    t = (a - 1.0f) / (a + 1.0f);
  }
  const float z = t * t;
  const float p = ((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z -
                  3.33329491539e-1f;
  return base + (t + (p * z * t + base_lo));
}
BBX_HOST_DEVICE float atan(float x) {
  if (x != x) return x;
  return __builtin_copysignf(atan_pos(__builtin_fabsf(x)), x);
}
// atan2 with C's special cases (signed zeros, infinities) (<= 3 ulp).
BBX_HOST_DEVICE float atan2(float y, float x) {
  if (x != x || y != y) return x + y;
  const float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  const bool x_neg = __builtin_signbit(x) != 0;
  float r;
  if (ay == 0.0f) {
    r = x_neg ? kPi : 0.0f;
  } else if (ax == __builtin_inff() && ay == __builtin_inff()) {
    r = x_neg ? 3.0f * kPi4 : kPi4;
  } else if (ax >= ay) {
    const float a = atan_pos(ay / ax);
    r = x_neg ? kPi - a : a;
  } else {
    const float a = kPi2 - atan_pos(ax / ay);
    r = x_neg ? kPi - a : a;
  }
  return __builtin_copysignf(r, y);
}
// asin: a polynomial in x^2 on [0, 1/2], asin(a) = pi/2 - 2 asin(sqrt((1 - a) / 2)) above (<= 3 ulp).
BBX_HOST_DEVICE float asin_poly(float z) {
  return (((4.2163199048e-2f * z + 2.4181311049e-2f) * z + 4.5470025998e-2f) * z +
          7.4953002686e-2f) * z + 1.6666752422e-1f;
}
BBX_HOST_DEVICE float asin(float x) {
  const float a = __builtin_fabsf(x);
  if (!(a <= 1.0f)) return (x - x) / (x - x);  // NaN (|x| > 1 or NaN)
  float r;
  if (a > 0.5f) {
    const float z = 0.5f * (1.0f - a);
    const float s = __builtin_sqrtf(z);
    r = kPi2 - (2.0f * (s + s * z * asin_poly(z)) - kPi2Lo);
  } else {
    const float z = a * a;
    r = a + a * z * asin_poly(z);
  }
  return __builtin_copysignf(r, x);
}
BBX_HOST_DEVICE float acos(float x) {
  if (!(__builtin_fabsf(x) <= 1.0f)) return (x - x) / (x - x);
  if (x > 0.5f) return 2.0f * asin(__builtin_sqrtf(0.5f * (1.0f - x)));
  if (x < -0.5f) return kPi - 2.0f * asin(__builtin_sqrtf(0.5f * (1.0f + x)));
  return kPi2 - asin(x);
}
// expm1 and log1p by Kahan's correction of exp / log near 0 (<= 3 ulp where exp and log are
// <= 1 ulp); away from 0, exp(x) - 1 and log(1 + x) lose nothing.
BBX_HOST_DEVICE float expm1(float x) {
  const float u = __builtin_expf(x);
  if (!(__builtin_fabsf(x) < 0.5f)) return u - 1.0f;  // also inf, NaN
  if (u == 1.0f) return x;
  const float um1 = u - 1.0f;
  if (um1 == -1.0f) return -1.0f;
  if (u == __builtin_inff() || x != x) return u;
  return um1 * x / __builtin_logf(u);
}
BBX_HOST_DEVICE float log1p(float x) {
  const float u = 1.0f + x;
  if (u == 1.0f) return x;
  if (u == __builtin_inff() || !(u > 0.0f)) return __builtin_logf(u);
  return __builtin_logf(u) * x / (u - 1.0f);
}
// (<= 3 ulp)
BBX_HOST_DEVICE float sinh(float x) {
  const float a = __builtin_fabsf(x);
  float r;
  if (a < 1.0f) {  // the odd Taylor series to a^11 (truncation < 2e-10 relative)
    const float z = a * a;
    r = a + a * z * (1.0f / 6 + z * (1.0f / 120 + z * (1.0f / 5040 + z * (1.0f / 362880 + z * (1.0f / 39916800)))));
  } else if (a < 88.0f) {
    const float e = __builtin_expf(a);
    r = 0.5f * (e - 1.0f / e);
  } else {
    const float h = __builtin_expf(0.5f * a);  // e^a / 2 without overflowing before the end
    r = (0.5f * h) * h;
  }
  return __builtin_copysignf(r, x);
}
// (<= 3 ulp)
BBX_HOST_DEVICE float cosh(float x) {
  const float a = __builtin_fabsf(x);
  if (a < 88.0f) {
    const float e = __builtin_expf(a);
    return 0.5f * (e + 1.0f / e);
  }
  const float h = __builtin_expf(0.5f * a);
  return (0.5f * h) * h;
}
// (<= 4 ulp)
BBX_HOST_DEVICE float asinh(float x) {
  const float a = __builtin_fabsf(x);
  float r;
  if (a > 4096.0f) {
    r = __builtin_logf(a) + kLn2;
  } else if (a > 2.0f) {
    r = __builtin_logf(2.0f * a + 1.0f / (__builtin_sqrtf(a * a + 1.0f) + a));
  } else {
    const float t = a * a;
    r = log1p(a + t / (1.0f + __builtin_sqrtf(1.0f + t)));
  }
  return __builtin_copysignf(r, x);
}
// (<= 4 ulp)
BBX_HOST_DEVICE float acosh(float x) {
  if (!(x >= 1.0f)) return (x - x) / (x - x);
  if (x > 4096.0f) return __builtin_logf(x) + kLn2;
  if (x > 2.0f) return __builtin_logf(2.0f * x - 1.0f / (x + __builtin_sqrtf(x * x - 1.0f)));
  const float t = x - 1.0f;
  return log1p(t + __builtin_sqrtf(t * (2.0f + t)));
}
// (<= 4 ulp)
BBX_HOST_DEVICE float atanh(float x) {
  const float a = __builtin_fabsf(x);
  return __builtin_copysignf(0.5f * log1p(2.0f * a / (1.0f - a)), x);
}
// cbrt: exp2(log2|x| / 3) and two Newton steps (<= 1 ulp).
BBX_HOST_DEVICE float cbrt(float x) {
  const float a = __builtin_fabsf(x);
  if (a == 0.0f || a == __builtin_inff() || x != x) return x;
  float y = __builtin_exp2f(__builtin_log2f(a) * (1.0f / 3.0f));
  y = y + (a / (y * y) - y) * (1.0f / 3.0f);
  y = y + (a / (y * y) - y) * (1.0f / 3.0f);
  return __builtin_copysignf(y, x);
}
// erfc: a Chebyshev-fitted exp(-x^2 + P(t)) with t = 1 / (1 + x / 2): relative error < 1.2e-7
// for every x >= 0 in exact arithmetic (so erfc keeps its precision in the tail, unlike 1 - erf;
// <= 8 ulp in float); 2 - erfc(-x) below 0.
BBX_HOST_DEVICE float erfc(float x) {
  if (x != x) return x;
  const float z = __builtin_fabsf(x);
  const float t = 1.0f / (1.0f + 0.5f * z);
  const float p =
      -1.26551223f +
      t * (1.00002368f +
           t * (0.37409196f +
                t * (0.09678418f +
                     t * (-0.18628806f +
                          t * (0.27886807f +
                               t * (-1.13520398f +
                                    t * (1.48851587f + t * (-0.82215223f + t * 0.17087277f))))))));
  // e^(-z^2) with z^2 split exactly into hi + lo (the tail needs all bits of the exponent)
  const float zz = z * z, zz_lo = __builtin_fmaf(z, z, -zz);
  const float r = t * __builtin_expf(-zz) * __builtin_expf(p - zz_lo);
  return x >= 0.0f ? r : 2.0f - r;
}
// log2 of a positive normal or subnormal float in double precision (|error| < 1e-12): the
// exponent from frexp, the mantissa m in [sqrt(1/2), sqrt(2)) by log(m) = 2 atanh(s),
// s = (m - 1) / (m + 1), |s| <= 0.1716 (8 terms of the series).
BBX_HOST_DEVICE double log2_wide(float a) {
  int e = 0;
  double m = static_cast<double>(__builtin_frexpf(a, &e));  // a = m 2^e, m in [1/2, 1)
  if (m < 0.70710678118654752) {
    m *= 2.0;
    e -= 1;
  }
  const double s = (m - 1.0) / (m + 1.0), s2 = s * s;
  double sum = 1.0 / 15.0;
  sum = sum * s2 + 1.0 / 13.0;
  sum = sum * s2 + 1.0 / 11.0;
  sum = sum * s2 + 1.0 / 9.0;
  sum = sum * s2 + 1.0 / 7.0;
  sum = sum * s2 + 1.0 / 5.0;
  sum = sum * s2 + 1.0 / 3.0;
  sum = sum * s2 + 1.0;
  return static_cast<double>(e) + 2.0 * s * sum * 1.4426950408889634074;
}
BBX_HOST_DEVICE bool is_odd_integer(float y) {
  if (__builtin_fabsf(y) >= 16777216.0f) return false;  // every float this large is even
  const float h = 0.5f * y;
  return __builtin_floorf(y) == y && __builtin_floorf(h) != h;
}
// pow with C's special cases; exp2(y log2|x|) with the product formed in double (<= 2 ulp).
BBX_HOST_DEVICE float pow(float x, float y) {
  if (y == 0.0f || x == 1.0f) return 1.0f;
  if (x != x || y != y) return x + y;
  const float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  const bool odd = is_odd_integer(y);
  const float sign = (__builtin_signbit(x) && odd) ? -1.0f : 1.0f;
  if (ay == __builtin_inff()) {
    if (ax == 1.0f) return 1.0f;
    return (ax > 1.0f) == (y > 0.0f) ? __builtin_inff() : 0.0f;
  }
  if (ax == 0.0f) return y < 0.0f ? sign * __builtin_inff() : sign * 0.0f;
  if (ax == __builtin_inff()) return y < 0.0f ? sign * 0.0f : sign * __builtin_inff();
  if (x < 0.0f && __builtin_floorf(y) != y) return (x - x) / (x - x);  // NaN
  const double t = static_cast<double>(y) * log2_wide(ax);
  if (t > 128.0) return sign * __builtin_inff();
  if (t < -150.0) return sign * 0.0f;
  const double n = __builtin_floor(t + 0.5);
  const float f = static_cast<float>(t - n);  // in [-1/2, 1/2]
  return sign * __builtin_ldexpf(__builtin_exp2f(f), static_cast<int>(n));
}
}  // namespace detail::portable

namespace scalar {

// Float C-library function F on the current target (see the header comment).
#define BBX_SPECIAL_F32(F, PORTABLE) BBX_LIBM_SPECIAL_F32(F, PORTABLE)
#define BBX_SPECIAL_F64(F, OCML) BBX_LIBM_SPECIAL_F64(F, OCML)

#define BBX_SPECIAL_UNARY(NAME, PORTABLE)                                              \
  template <class T>                                                                   \
    requires(is_floating_v<T>)                                                         \
  BBX_HOST_DEVICE T NAME(T x) {                                                        \
    if constexpr (std::is_same_v<T, double>) return BBX_SPECIAL_F64(NAME, NAME)(x);    \
    else return to<T>(BBX_SPECIAL_F32(NAME, PORTABLE)(static_cast<float>(x)));         \
  }
BBX_SPECIAL_UNARY(asin, asin)
BBX_SPECIAL_UNARY(acos, acos)
BBX_SPECIAL_UNARY(atan, atan)
BBX_SPECIAL_UNARY(sinh, sinh)
BBX_SPECIAL_UNARY(cosh, cosh)
BBX_SPECIAL_UNARY(asinh, asinh)
BBX_SPECIAL_UNARY(acosh, acosh)
BBX_SPECIAL_UNARY(atanh, atanh)
BBX_SPECIAL_UNARY(expm1, expm1)
BBX_SPECIAL_UNARY(log1p, log1p)
BBX_SPECIAL_UNARY(cbrt, cbrt)
BBX_SPECIAL_UNARY(erfc, erfc)
#undef BBX_SPECIAL_UNARY

template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T atan2(T y, T x) {
  if constexpr (std::is_same_v<T, double>) return BBX_SPECIAL_F64(atan2, atan2)(y, x);
  else return to<T>(BBX_SPECIAL_F32(atan2, atan2)(static_cast<float>(y), static_cast<float>(x)));
}
template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T pow(T x, T y) {
  if constexpr (std::is_same_v<T, double>) return BBX_SPECIAL_F64(pow, pow)(x, y);
  else return to<T>(BBX_SPECIAL_F32(pow, pow)(static_cast<float>(x), static_cast<float>(y)));
}

// Functions that lower to instructions for float on every target (tan and log10 through sin,
// cos and log2 on AMD without ROCm).
template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T tan(T x) {
  return detail::libm_tan(x);
}
template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T log10(T x) {
  return detail::libm_log10(x);
}
#undef BBX_SPECIAL_F32
#undef BBX_SPECIAL_F64

// Rounding, sign, fused multiply-add and remainder: instructions on every target.
#define BBX_BUILTIN(F) BBX_LIBM(F)
#define BBX_EXACT_UNARY(NAME, F32, F64)                                               \
  template <class T>                                                                  \
    requires(is_floating_v<T>)                                                        \
  BBX_HOST_DEVICE T NAME(T x) {                                                       \
    if constexpr (std::is_same_v<T, double>) return BBX_BUILTIN(F64)(x);              \
    else return to<T>(BBX_BUILTIN(F32)(static_cast<float>(x)));                       \
  }
BBX_EXACT_UNARY(trunc, truncf, trunc)
BBX_EXACT_UNARY(round, roundf, round)
BBX_EXACT_UNARY(roundeven, rintf, rint)  // the default rounding mode is to nearest, ties to even
#undef BBX_EXACT_UNARY
template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T copysign(T mag, T sgn) {
  if constexpr (std::is_same_v<T, double>) return BBX_BUILTIN(copysign)(mag, sgn);
  else return to<T>(BBX_BUILTIN(copysignf)(static_cast<float>(mag), static_cast<float>(sgn)));
}
template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T fma(T a, T b, T c) {
  if constexpr (std::is_same_v<T, double>) return BBX_BUILTIN(fma)(a, b, c);
  else return to<T>(BBX_BUILTIN(fmaf)(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c)));
}
template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T rem(T x, T y) {
  if constexpr (std::is_same_v<T, double>) return BBX_BUILTIN(fmod)(x, y);
  else return to<T>(BBX_BUILTIN(fmodf)(static_cast<float>(x), static_cast<float>(y)));
}
#undef BBX_BUILTIN

// x^n for an integer n, by repeated squaring (LLVM's powi: n < 0 gives 1 / x^|n|).
template <class T, class I>
  requires(is_floating_v<T> && std::is_integral_v<I>)
BBX_HOST_DEVICE T fpowi(T x, I n) {
  using W = std::conditional_t<std::is_same_v<T, double>, double, float>;
  W base = static_cast<W>(x), r = W(1);
  unsigned long long k = n < 0 ? 0ull - static_cast<unsigned long long>(n) : static_cast<unsigned long long>(n);
  while (k != 0) {
    if (k & 1ull) r *= base;
    base *= base;
    k >>= 1;
  }
  return to<T>(n < 0 ? W(1) / r : r);
}
// b^e for integers, wrapping like the hardware (e < 0: 0 unless |b| == 1, as MLIR's ipowi).
template <class I>
  requires(std::is_integral_v<I>)
BBX_HOST_DEVICE I ipowi(I b, I e) {
  if (e < 0) {
    if (b == I(1)) return I(1);
    if constexpr (std::is_signed_v<I>)
      if (b == I(-1)) return (e & 1) ? I(-1) : I(1);
    return I(0);
  }
  using U = std::make_unsigned_t<I>;
  U base = static_cast<U>(b), r = U(1);
  for (U k = static_cast<U>(e); k != 0; k >>= 1) {
    if (k & U(1)) r = static_cast<U>(r * base);
    base = static_cast<U>(base * base);
  }
  return static_cast<I>(r);
}

// Classification of a floating value.
template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE bool isnan(T x) {
  return x != x;
}
template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE bool isinf(T x) {
  using W = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const W w = static_cast<W>(x);
  return w == numeric_limits<W>::infinity() || w == -numeric_limits<W>::infinity();
}
template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE bool isfinite(T x) {
  return !isnan(x) && !isinf(x);
}
// Normal in T's own format (a half_t below 2^-14 is subnormal even though it is a normal float).
template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE bool isnormal(T x) {
  using W = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const W a = static_cast<W>(x) < W(0) ? -static_cast<W>(x) : static_cast<W>(x);
  return isfinite(x) && a >= static_cast<W>(numeric_limits<T>::min());
}

}  // namespace scalar
}  // namespace bbx
