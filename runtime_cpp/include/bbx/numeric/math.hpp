// bbx/numeric/math.hpp — scalar math used by generated code (`exp`, `log`, `sqrt`, ...).
//
// These are constrained templates on purpose: a non-template overload visible from elsewhere
// (e.g. ::fabs or a platform intrinsic wrapper) wins ties instead of being ambiguous, while
// `abs(1.5f)` can never silently pick C's `int abs(int)`. 16-bit floats compute in float.
#pragma once

#include <cmath>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/platform/libm_hooks.hpp"

namespace bbx {

namespace detail {
template <class T>
using math_t = std::conditional_t<std::is_same_v<std::remove_cv_t<T>, double>, double, float>;
}

// The target's name of C library function F (platform/libm_hooks.hpp: clang builtins on AMD, which
// has no libm in device code without ROCm headers; the C library names elsewhere).
#define BBX_MATHFN(F) BBX_LIBM(F)

#define BBX_UNARY_FLOAT_FN(NAME, F32, F64)                                           \
  template <class T>                                                                \
    requires(is_floating_v<T>)                                                      \
  BBX_HOST_DEVICE T NAME(T x) {                                                     \
    if constexpr (std::is_same_v<T, double>) return BBX_MATHFN(F64)(x);             \
    else if constexpr (std::is_same_v<T, float>) return BBX_MATHFN(F32)(x);         \
    else return T(BBX_MATHFN(F32)(static_cast<float>(x)));                          \
  }

// IEEE-754 maxNum / minNum of two floats or doubles (a NaN operand yields the other operand):
// one instruction on every target (PTX max.f32, v_max_f32; maxss on the host).
template <class T>
  requires(std::is_same_v<T, float> || std::is_same_v<T, double>)
BBX_HOST_DEVICE T maxnum(T x, T y) {
  if constexpr (std::is_same_v<T, float>) return BBX_MATHFN(fmaxf)(x, y);
  else return BBX_MATHFN(fmax)(x, y);
}
template <class T>
  requires(std::is_same_v<T, float> || std::is_same_v<T, double>)
BBX_HOST_DEVICE T minnum(T x, T y) {
  if constexpr (std::is_same_v<T, float>) return BBX_MATHFN(fminf)(x, y);
  else return BBX_MATHFN(fmin)(x, y);
}

BBX_UNARY_FLOAT_FN(exp, expf, exp)
BBX_UNARY_FLOAT_FN(exp2, exp2f, exp2)
BBX_UNARY_FLOAT_FN(log, logf, log)
BBX_UNARY_FLOAT_FN(log2, log2f, log2)
BBX_UNARY_FLOAT_FN(sqrt, sqrtf, sqrt)
BBX_UNARY_FLOAT_FN(sin, sinf, sin)
BBX_UNARY_FLOAT_FN(cos, cosf, cos)
BBX_UNARY_FLOAT_FN(floor, floorf, floor)
BBX_UNARY_FLOAT_FN(ceil, ceilf, ceil)
#undef BBX_UNARY_FLOAT_FN

template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T rsqrt(T x) {
  return to<T>(1.0f / BBX_MATHFN(sqrtf)(static_cast<float>(x)));
}

template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T tanh(T x) {
  return detail::libm_tanh(x);
}

// Scalar `abs`, `min`, `max` come from bbx/layout/integer.hpp (generic templates that also serve
// floats and the 16-bit floats); Value overloads live in bbx/tensor/value.hpp.

// `a // b` of the DSL's signed integers (arith.floordivsi): the quotient rounded toward negative
// infinity, as in Python (C++ `/` rounds toward zero). `%` stays C++'s (the DSL's arith.remsi).
template <class T>
  requires(std::is_integral_v<T> && std::is_signed_v<T>)
BBX_HOST_DEVICE constexpr T floordiv(T a, T b) {
  const T q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? T(q - 1) : q;
}

}  // namespace bbx

#undef BBX_MATHFN
