// bbx/tensor/value_math.hpp — `cute.math.*` on scalars and register values (TensorSSA):
// namespace bbx::math, one function per DSL name, elementwise over `Value<T, N>` operands.
//
//   math::NAME(x)            T -> T, Value<T, N> -> Value<T, N>
//   math::NAME(x, y[, z])    the element type of the first operand; the others convert to it
//                            (the DSL requires one numeric type; a Python literal is weakly typed)
//   math::isnan(x) ...       bool / Value<bool, N>
//   math::sincos(x)          tuple(sin x, cos x)
//
// max/min are IEEE maxNum/minNum for floats (a NaN operand yields the other operand, the DSL's
// default) and fmaximum/fminimum propagate NaN (`propagate_nan=True`; -0 < +0). Integers compare
// in their own signedness. The scalar functions come from bbx/numeric/{math,fast_math,
// special_math}.hpp.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/tuple.hpp"
#include "bbx/numeric.hpp"
#include "bbx/numeric/special_math.hpp"
#include "bbx/tensor/value.hpp"

namespace bbx::math {

namespace detail {
// The element count of a register value (0 for a scalar), and of the first among X....
template <class X> struct value_count : std::integral_constant<int, 0> {};
template <class T, int N, class VS> struct value_count<Value<T, N, VS>> : std::integral_constant<int, N> {};
// The shape of the first value among X... (the result's shape: value operands share it).
template <class... X> struct value_shape { using type = void; };
template <class X, class... Rest> struct value_shape<X, Rest...> : value_shape<Rest...> {};
template <class T, int N, class VS, class... Rest>
struct value_shape<Value<T, N, VS>, Rest...> { using type = VS; };
template <class... X>
BBX_HOST_DEVICE constexpr int value_size() {
  int n = 0;
  ((n = n == 0 ? value_count<std::remove_cvref_t<X>>::value : n), ...);
  return n;
}
// Element i of a value, or the scalar itself (a static integer as its value).
template <class X>
BBX_HOST_DEVICE auto at(X const& x, int i) {
  if constexpr (is_value_v<X>) return typename std::remove_cvref_t<X>::value_type(x[i]);
  else if constexpr (is_C_v<X>) return X::value;
  else return x;
}
template <class X>
using elem_t = decltype(at(std::declval<X const&>(), 0));
// f over the elements of the value operands (scalars broadcast); f itself for scalars only.
template <class F, class... X>
BBX_HOST_DEVICE auto lift(F f, X const&... xs) {
  constexpr int N = value_size<X...>();
  if constexpr (N == 0) {
    return f(at(xs, 0)...);
  } else {
    using R = std::remove_cvref_t<decltype(f(at(xs, 0)...))>;
    Value<R, N, typename value_shape<std::remove_cvref_t<X>...>::type> r;
    BBX_UNROLL
    for (int i = 0; i < N; ++i) r[i] = f(at(xs, i)...);
    return r;
  }
}
template <class T>
BBX_HOST_DEVICE bool is_nan(T x) {
  if constexpr (is_floating_v<T>) return x != x;
  else return false;
}
template <class T>
BBX_HOST_DEVICE T rem(T a, T b) {
  if constexpr (is_floating_v<T>) return ::bbx::scalar::rem(a, b);
  else return T(a % b);  // truncated: the sign of a, like fmod
}
template <class T>
BBX_HOST_DEVICE bool sign_bit(T x) {
  if constexpr (is_floating_v<T>) return __builtin_signbit(static_cast<float>(x)) != 0;
  else return x < T(0);
}
}  // namespace detail

// ---- unary functions of floating values -------------------------------------------------------
#define BBX_MATH_UNARY(NAME, SCALAR)                                                 \
  template <class X>                                                                 \
  BBX_HOST_DEVICE auto NAME(X const& x) {                                            \
    return detail::lift([](auto a) BBX_INLINE { return SCALAR(a); }, x);                        \
  }
BBX_MATH_UNARY(tan, ::bbx::scalar::tan)
BBX_MATH_UNARY(asin, ::bbx::scalar::asin)
BBX_MATH_UNARY(acos, ::bbx::scalar::acos)
BBX_MATH_UNARY(atan, ::bbx::scalar::atan)
BBX_MATH_UNARY(sinh, ::bbx::scalar::sinh)
BBX_MATH_UNARY(cosh, ::bbx::scalar::cosh)
BBX_MATH_UNARY(asinh, ::bbx::scalar::asinh)
BBX_MATH_UNARY(acosh, ::bbx::scalar::acosh)
BBX_MATH_UNARY(atanh, ::bbx::scalar::atanh)
BBX_MATH_UNARY(expm1, ::bbx::scalar::expm1)
BBX_MATH_UNARY(log1p, ::bbx::scalar::log1p)
BBX_MATH_UNARY(log10, ::bbx::scalar::log10)
BBX_MATH_UNARY(cbrt, ::bbx::scalar::cbrt)
BBX_MATH_UNARY(erfc, ::bbx::scalar::erfc)
BBX_MATH_UNARY(trunc, ::bbx::scalar::trunc)
BBX_MATH_UNARY(round, ::bbx::scalar::round)
BBX_MATH_UNARY(roundeven, ::bbx::scalar::roundeven)
BBX_MATH_UNARY(isnan, ::bbx::scalar::isnan)
BBX_MATH_UNARY(isinf, ::bbx::scalar::isinf)
BBX_MATH_UNARY(isfinite, ::bbx::scalar::isfinite)
BBX_MATH_UNARY(isnormal, ::bbx::scalar::isnormal)
#undef BBX_MATH_UNARY

// |x| of a float (absf) or an integer (absi); abs takes either.
template <class X>
BBX_HOST_DEVICE auto abs(X const& x) {
  return detail::lift([](auto a) BBX_INLINE { return decltype(a)(a < decltype(a)(0) || detail::sign_bit(a) ? -a : a); }, x);
}
template <class X>
BBX_HOST_DEVICE auto absf(X const& x) {
  static_assert(is_floating_v<detail::elem_t<X>>, "cute.math.absf: a floating-point operand");
  return abs(x);
}
template <class X>
BBX_HOST_DEVICE auto absi(X const& x) {
  static_assert(std::is_integral_v<detail::elem_t<X>>, "cute.math.absi: an integer operand");
  return abs(x);
}
template <class X>
BBX_HOST_DEVICE auto neg(X const& x) {
  return detail::lift([](auto a) BBX_INLINE { return decltype(a)(-a); }, x);
}
// 1 / x, IEEE (rcp_approx in fast_math.hpp is the approximate form).
template <class X>
BBX_HOST_DEVICE auto rcp(X const& x) {
  return detail::lift([](auto a) BBX_INLINE {
    using T = decltype(a);
    return to<T>(1.0f / static_cast<std::conditional_t<std::is_same_v<T, double>, double, float>>(a));
  }, x);
}
// (sin x, cos x).
template <class X>
BBX_HOST_DEVICE auto sincos(X const& x) {
  return ::bbx::make_tuple(::bbx::sin(x), ::bbx::cos(x));
}

// ---- binary and ternary functions: the first operand's element type ---------------------------
#define BBX_MATH_BINARY(NAME, EXPR)                                                       \
  template <class X, class Y>                                                             \
  BBX_HOST_DEVICE auto NAME(X const& x, Y const& y) {                                     \
    return detail::lift(                                                                  \
        [](auto a, auto b0) {                                                             \
          using T = decltype(a);                                                          \
          const T b = ::bbx::to<T>(b0);                                                   \
          return EXPR;                                                                    \
        },                                                                                \
        x, y);                                                                            \
  }
BBX_MATH_BINARY(add, T(a + b))
BBX_MATH_BINARY(sub, T(a - b))
BBX_MATH_BINARY(mul, T(a * b))
BBX_MATH_BINARY(div, T(a / b))
BBX_MATH_BINARY(atan2, ::bbx::scalar::atan2(a, b))
BBX_MATH_BINARY(pow, ::bbx::scalar::pow(a, b))
BBX_MATH_BINARY(copysign, ::bbx::scalar::copysign(a, b))
BBX_MATH_BINARY(ipowi, ::bbx::scalar::ipowi(a, b))
BBX_MATH_BINARY(rem, detail::rem(a, b))
// maxNum / minNum (NaN ignored) and, for integers, the comparison in their signedness.
BBX_MATH_BINARY(max, (detail::is_nan(a) ? b : detail::is_nan(b) ? a : (a < b ? b : a)))
BBX_MATH_BINARY(min, (detail::is_nan(a) ? b : detail::is_nan(b) ? a : (b < a ? b : a)))
// IEEE 754-2019 maximum / minimum: NaN propagates, -0 < +0.
BBX_MATH_BINARY(fmaximum, (detail::is_nan(a) || detail::is_nan(b) ? T(a + b)
                           : a == b ? (detail::sign_bit(a) ? b : a)
                           : (a < b ? b : a)))
BBX_MATH_BINARY(fminimum, (detail::is_nan(a) || detail::is_nan(b) ? T(a + b)
                           : a == b ? (detail::sign_bit(a) ? a : b)
                           : (b < a ? b : a)))
#undef BBX_MATH_BINARY

// x / y through the approximate reciprocal (`div(approx=True)`, `div(fastmath=True)`).
template <class X, class Y>
BBX_HOST_DEVICE auto div_approx(X const& x, Y const& y) {
  return detail::lift([](auto a, auto b0) BBX_INLINE {
    using T = decltype(a);
    if constexpr (is_floating_v<T>) return T(a * ::bbx::rcp_approx(::bbx::to<T>(b0)));
    else return T(a / ::bbx::to<T>(b0));
  }, x, y);
}
// x^n, n an integer (scalar or value).
template <class X, class N>
BBX_HOST_DEVICE auto fpowi(X const& x, N const& n) {
  return detail::lift([](auto a, auto k) BBX_INLINE { return ::bbx::scalar::fpowi(a, k); }, x, n);
}
template <class A, class B, class Cc>
BBX_HOST_DEVICE auto fma(A const& a, B const& b, Cc const& c) {
  return detail::lift([](auto x, auto y0, auto z0) BBX_INLINE {
    using T = decltype(x);
    return ::bbx::scalar::fma(x, ::bbx::to<T>(y0), ::bbx::to<T>(z0));
  }, a, b, c);
}
// max(lo, min(x, hi)), as the DSL composes it, in x's element type.
template <class X, class L, class H>
BBX_HOST_DEVICE auto clamp(X const& x, L const& lo, H const& hi) {
  return detail::lift([](auto a, auto l0, auto h0) BBX_INLINE {
    using T = decltype(a);
    const T l = ::bbx::to<T>(l0), h = ::bbx::to<T>(h0);
    const T m = detail::is_nan(a) ? h : detail::is_nan(h) ? a : (h < a ? h : a);
    return detail::is_nan(l) ? m : detail::is_nan(m) ? l : (l < m ? m : l);
  }, x, lo, hi);
}
// The same with NaN propagating (`propagate_nan=True`).
template <class X, class L, class H>
BBX_HOST_DEVICE auto clamp_propagate_nan(X const& x, L const& lo, H const& hi) {
  return detail::lift([](auto a, auto l0, auto h0) BBX_INLINE {
    using T = decltype(a);
    const T l = ::bbx::to<T>(l0), h = ::bbx::to<T>(h0);
    return fmaximum(l, fminimum(a, h));
  }, x, lo, hi);
}

// ---- cutlass.max / cutlass.min: a fold over any number of operands ----------------------------
// Scalars take the promoted type of the pair (Int32 with Float32 is Float32, as the DSL's
// binary promotion); floats compare as IEEE maximum / minimum (NaN propagates: arith.maximumf),
// integers in their signedness. Register values compare elementwise in the first one's type.
namespace detail {
template <class A, class B>
BBX_HOST_DEVICE auto promote_pair(A const& a, B const& b) {
  using TA = elem_t<A>;
  using TB = elem_t<B>;
  if constexpr (is_value_v<A> || is_value_v<B>) {
    return a;  // a value's element type decides (lift converts the other operand)
  } else if constexpr (std::is_same_v<TA, TB>) {
    return at(a, 0);
  } else {
    using R = decltype(at(a, 0) + at(b, 0));
    return ::bbx::to<std::remove_cvref_t<R>>(at(a, 0));
  }
}
}  // namespace detail
template <class A>
BBX_HOST_DEVICE auto max_of(A const& a) { return a; }
template <class A, class B, class... Rest>
BBX_HOST_DEVICE auto max_of(A const& a, B const& b, Rest const&... rest) {
  const auto x = detail::promote_pair(a, b);
  const auto y = detail::promote_pair(b, a);
  return max_of(fmaximum(x, y), rest...);
}
template <class A>
BBX_HOST_DEVICE auto min_of(A const& a) { return a; }
template <class A, class B, class... Rest>
BBX_HOST_DEVICE auto min_of(A const& a, B const& b, Rest const&... rest) {
  const auto x = detail::promote_pair(a, b);
  const auto y = detail::promote_pair(b, a);
  return min_of(fminimum(x, y), rest...);
}

}  // namespace bbx::math
