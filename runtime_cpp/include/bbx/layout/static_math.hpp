// bbx/layout/static_math.hpp — Python's `math` functions and int()/float() on static numbers.
//
// A CuTe-DSL program computes configuration with Python's math module on values that are known
// when the kernel is traced but that bbx only knows when C++ instantiates the kernel, e.g. a
// swizzle from an element type's width:
//
//   int(math.log2(major_mode_size * dtype.width // copy_bits))
//     -> static_math::to_int(static_math::log2(major * Int<sizeof_bits_v<T>>{} / _128{}))
//
// Every function maps C<v> to C<f(v)>, computed by constexpr code (in double) with Python's
// results. Floating results are C<float> (a C++20 floating-point template argument): a Python
// float next to a Float32 or Float16 value takes that value's type in the DSL, and a float
// converts to either without widening the expression to double. log2/log/log10 are exact
// on powers of two (and of ten for log10 when exact in double), floor/ceil/trunc/isqrt/gcd/lcm
// give integers, int() truncates toward zero.
#pragma once

#include <cstdint>
#include <type_traits>

#include "integer.hpp"

namespace bbx::static_math {

namespace detail {
inline constexpr double ln2 = 0.693147180559945309417232121458176568;
inline constexpr double ln10 = 2.302585092994045684017991454684364208;

// ln(m) for m in [1, 2): 2 atanh((m - 1) / (m + 1)), |t| <= 1/3.
constexpr double ln_mantissa(double m) {
  const double t = (m - 1.0) / (m + 1.0);
  const double t2 = t * t;
  double term = t, sum = 0.0;
  for (int k = 1; k < 80; k += 2) {
    sum += term / k;
    term *= t2;
  }
  return 2.0 * sum;
}

// x = m * 2^e with m in [1, 2); x > 0.
constexpr double log2_of(double x) {
  int e = 0;
  while (x >= 2.0) {
    x /= 2.0;
    ++e;
  }
  while (x < 1.0) {
    x *= 2.0;
    --e;
  }
  if (x == 1.0) return double(e);
  return double(e) + ln_mantissa(x) / ln2;
}

constexpr double ln_of(double x) { return log2_of(x) * ln2; }

constexpr double log10_of(double x) {
  // exact for powers of ten that double represents exactly
  double p = 1.0;
  for (int e = 0; e < 23; ++e, p *= 10.0) {
    if (x == p) return double(e);
  }
  return ln_of(x) / ln10;
}

constexpr double sqrt_of(double x) {
  if (x == 0.0) return 0.0;
  double r = x < 1.0 ? 1.0 : x;
  for (int i = 0; i < 200; ++i) {
    const double next = 0.5 * (r + x / r);
    if (next == r) break;
    r = next;
  }
  return r;
}

constexpr int64_t floor_of(double x) {
  const int64_t t = int64_t(x);
  return double(t) > x ? t - 1 : t;
}

constexpr int64_t ceil_of(double x) {
  const int64_t t = int64_t(x);
  return double(t) < x ? t + 1 : t;
}

constexpr int64_t isqrt_of(int64_t n) {
  int64_t r = int64_t(sqrt_of(double(n)));
  while (r * r > n) --r;
  while ((r + 1) * (r + 1) <= n) ++r;
  return r;
}

// Narrow an integer result to int when it fits (the usual static integer type).
template <int64_t v>
BBX_HOST_DEVICE constexpr auto int_c() {
  if constexpr (v >= INT32_MIN && v <= INT32_MAX) {
    return C<int(v)>{};
  } else {
    return C<v>{};
  }
}
}  // namespace detail

// ---- math.* ----------------------------------------------------------------------------------
template <auto v>
BBX_HOST_DEVICE constexpr auto log2(C<v>) {
  static_assert(v > 0, "math.log2: math domain error (the argument must be positive)");
  return C<float(detail::log2_of(double(v)))>{};
}
template <auto v>
BBX_HOST_DEVICE constexpr auto log(C<v>) {
  static_assert(v > 0, "math.log: math domain error (the argument must be positive)");
  return C<float(detail::ln_of(double(v)))>{};
}
template <auto v>
BBX_HOST_DEVICE constexpr auto log10(C<v>) {
  static_assert(v > 0, "math.log10: math domain error (the argument must be positive)");
  return C<float(detail::log10_of(double(v)))>{};
}
template <auto v>
BBX_HOST_DEVICE constexpr auto sqrt(C<v>) {
  static_assert(v >= 0, "math.sqrt: math domain error (the argument must be non-negative)");
  return C<float(detail::sqrt_of(double(v)))>{};
}
template <auto v>
BBX_HOST_DEVICE constexpr auto floor(C<v>) {
  return detail::int_c<detail::floor_of(double(v))>();
}
template <auto v>
BBX_HOST_DEVICE constexpr auto ceil(C<v>) {
  return detail::int_c<detail::ceil_of(double(v))>();
}
template <auto v>
BBX_HOST_DEVICE constexpr auto trunc(C<v>) {
  return detail::int_c<int64_t(v)>();
}
template <auto v>
BBX_HOST_DEVICE constexpr auto isqrt(C<v>) {
  static_assert(std::is_integral_v<decltype(v)> && v >= 0, "math.isqrt: a non-negative integer");
  return detail::int_c<detail::isqrt_of(int64_t(v))>();
}
template <auto a, auto b>
BBX_HOST_DEVICE constexpr auto gcd(C<a>, C<b>) {
  static_assert(std::is_integral_v<decltype(a)> && std::is_integral_v<decltype(b)>, "math.gcd: integers");
  return detail::int_c<::bbx::detail::gcd_ll(int64_t(a), int64_t(b))>();
}
template <auto a, auto b>
BBX_HOST_DEVICE constexpr auto lcm(C<a>, C<b>) {
  static_assert(std::is_integral_v<decltype(a)> && std::is_integral_v<decltype(b)>, "math.lcm: integers");
  constexpr int64_t g = ::bbx::detail::gcd_ll(int64_t(a), int64_t(b));
  constexpr int64_t l = g == 0 ? 0 : int64_t(a) / g * int64_t(b);
  return detail::int_c<(l < 0 ? -l : l)>();
}

// ---- Python's `/` (true division) of static numbers: a float -------------------------------------
template <auto a, auto b>
BBX_HOST_DEVICE constexpr auto true_div(C<a>, C<b>) {
  static_assert(b != 0, "division by zero");
  return C<float(static_cast<double>(a) / static_cast<double>(b))>{};
}

// ---- int() / float() / bool() ------------------------------------------------------------------
template <auto v>
BBX_HOST_DEVICE constexpr auto to_int(C<v>) {
  return detail::int_c<int64_t(v)>();
}
template <auto v>
BBX_HOST_DEVICE constexpr auto to_float(C<v>) {
  return C<float(v)>{};
}
template <auto v>
BBX_HOST_DEVICE constexpr auto to_bool(C<v>) {
  return C<bool(v)>{};
}

}  // namespace bbx::static_math
