// bbx/experimental/math.hpp — `cutlass.experimental.primitives.fmin` / `fabs` (NVVM's fmin and
// fabs, PTX min.f32 / abs.f32):
//
//   fmin<NaN, Abs, Ftz>(a, b [, c])   the least of two or three floats. Without NaN, a NaN operand
//                                     is ignored (IEEE minNum; NaN only when all are NaN); with
//                                     NaN, any NaN operand gives NaN. -0 is less than +0. With
//                                     Abs (PTX's xorsign.abs), the result is min(|a|, |b|) with
//                                     the sign of a * b (two operands only).
//   fabs<Ftz>(x)                      |x|
// Ftz flushes subnormal operands and results to zero (keeping the sign). For float, half_t and
// bfloat16_t (compared as float).
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric/numeric_types.hpp"

namespace bbx::experimental {

namespace detail {
template <bool Ftz, class T>
BBX_HOST_DEVICE T flush(T x) {
  if constexpr (Ftz) {
    const float f = static_cast<float>(x);
    const float mag = f < 0.f ? -f : f;
    if (mag != 0.f && mag < static_cast<float>(::bbx::numeric_limits<T>::min()))
      return ::bbx::to<T>(f < 0.f ? -0.f : 0.f);
  }
  return x;
}
template <class T>
BBX_HOST_DEVICE bool is_nan(T x) {
  const float f = static_cast<float>(x);
  return f != f;
}
template <class T>
BBX_HOST_DEVICE bool sign_bit(T x) {
  const float f = static_cast<float>(x);
  unsigned bits;
  __builtin_memcpy(&bits, &f, 4);
  return (bits >> 31) != 0u;
}
// The lesser of two non-NaN values; -0 < +0.
template <class T>
BBX_HOST_DEVICE T lesser(T a, T b) {
  const float x = static_cast<float>(a), y = static_cast<float>(b);
  if (x < y) return a;
  if (y < x) return b;
  return sign_bit(a) ? a : b;
}
template <bool NaN, class T>
BBX_HOST_DEVICE T min2(T a, T b) {
  if (is_nan(a) || is_nan(b)) {
    if constexpr (NaN) return ::bbx::numeric_limits<T>::quiet_NaN();
    else return is_nan(a) ? b : a;  // NaN when both are
  }
  return lesser(a, b);
}
template <class T>
BBX_HOST_DEVICE T abs_of(T x) {
  const float f = static_cast<float>(x);
  return sign_bit(x) ? ::bbx::to<T>(-f) : x;
}
}  // namespace detail

template <bool NaN = false, bool Abs = false, bool Ftz = false, class A, class B>
BBX_HOST_DEVICE auto fmin(A const& a, B const& b) {
  using T = std::common_type_t<A, B>;
  const T x = detail::flush<Ftz>(T(a)), y = detail::flush<Ftz>(T(b));
  if constexpr (Abs) {
    const T m = detail::min2<NaN>(detail::abs_of(x), detail::abs_of(y));
    if (detail::is_nan(m)) return m;
    const bool negative = detail::sign_bit(x) != detail::sign_bit(y);
    return detail::flush<Ftz>(negative ? ::bbx::to<T>(-static_cast<float>(m)) : m);
  } else {
    return detail::flush<Ftz>(detail::min2<NaN>(x, y));
  }
}
template <bool NaN = false, bool Abs = false, bool Ftz = false, class A, class B, class C>
BBX_HOST_DEVICE auto fmin(A const& a, B const& b, C const& c) {
  static_assert(!Abs, "fmin: abs= takes two operands (PTX min.xorsign.abs)");
  using T = std::common_type_t<A, B, C>;
  const T x = detail::flush<Ftz>(T(a)), y = detail::flush<Ftz>(T(b)), z = detail::flush<Ftz>(T(c));
  return detail::flush<Ftz>(detail::min2<NaN>(detail::min2<NaN>(x, y), z));
}

template <bool Ftz = false, class T>
BBX_HOST_DEVICE T fabs(T const& x) {
  return detail::flush<Ftz>(detail::abs_of(detail::flush<Ftz>(x)));
}

}  // namespace bbx::experimental
