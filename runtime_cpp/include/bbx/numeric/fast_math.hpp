// bbx/numeric/fast_math.hpp — `cute.math.*(x, fastmath=True)` and `cute.arch` fast math.
//
//   erf(x)                         error function
//   fast_exp, fast_exp2, fast_log, fast_log2, fast_sqrt, fast_rsqrt, fast_tanh, fast_erf
//                                  the target's approximate forms (same results as the precise
//                                  ones where the target has none: the CPU simulator)
//   rcp_approx(x)                  1 / x, approximate
//   arch::fmax(a, b), arch::fmin   IEEE maxNum / minNum: a NaN operand yields the other operand
//
// AMD: v_exp_f32 / v_log_f32 / v_rsq_f32 / v_rcp_f32 / v_sqrt_f32 through clang builtins.
// CUDA (device pass): the __expf / exp2f / __logf / rsqrtf / __fdividef intrinsics. The
// per-target forms are in platform/fast_math_hooks.hpp.
// 16-bit floats compute in float and round once.
#pragma once

#include <cmath>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/numeric/math.hpp"
#include "bbx/platform/fast_math_hooks.hpp"

namespace bbx {

template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T erf(T x) {
  return detail::erf_of(x);
}

// Fast forms: double stays precise; float and 16-bit floats use the float approximations.
#define BBX_FAST_FN(NAME, PRECISE, F32)                                          \
  template <class T>                                                             \
    requires(is_floating_v<T>)                                                   \
  BBX_HOST_DEVICE T NAME(T x) {                                                  \
    if constexpr (std::is_same_v<T, double>) return PRECISE(x);                  \
    else return to<T>(detail::F32(static_cast<float>(x)));                       \
  }
BBX_FAST_FN(fast_exp, ::bbx::exp, fast_exp_f32)
BBX_FAST_FN(fast_exp2, ::bbx::exp2, fast_exp2_f32)
BBX_FAST_FN(fast_log, ::bbx::log, fast_log_f32)
BBX_FAST_FN(fast_log2, ::bbx::log2, fast_log2_f32)
BBX_FAST_FN(fast_sqrt, ::bbx::sqrt, fast_sqrt_f32)
BBX_FAST_FN(fast_rsqrt, ::bbx::rsqrt, fast_rsqrt_f32)
BBX_FAST_FN(fast_tanh, ::bbx::tanh, fast_tanh_f32)
BBX_FAST_FN(rcp_approx, 1.0 /, rcp_f32)
#undef BBX_FAST_FN

template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T fast_erf(T x) { return ::bbx::erf(x); }

// IEEE-754 maxNum/minNum (a NaN operand yields the other operand), as PTX max.f32 / v_max_f32.
// In `arch::` (the DSL's `cute.arch.fmax`) so that C's ::fmax never competes in overloading.
namespace arch {
template <class A, class B>
  requires(is_numeric_v<A> && is_numeric_v<B>)
BBX_HOST_DEVICE auto fmax(A a, B b) {
  using R = decltype(a + b);
  const R x = to<R>(a), y = to<R>(b);
  if constexpr (std::is_same_v<R, float> || std::is_same_v<R, double>) {
    return ::bbx::maxnum(x, y);
  } else {
    if constexpr (is_floating_v<R>) {
      if (x != x) return y;
      if (y != y) return x;
    }
    return x < y ? y : x;
  }
}
template <class A, class B>
  requires(is_numeric_v<A> && is_numeric_v<B>)
BBX_HOST_DEVICE auto fmin(A a, B b) {
  using R = decltype(a + b);
  const R x = to<R>(a), y = to<R>(b);
  if constexpr (std::is_same_v<R, float> || std::is_same_v<R, double>) {
    return ::bbx::minnum(x, y);
  } else {
    if constexpr (is_floating_v<R>) {
      if (x != x) return y;
      if (y != y) return x;
    }
    return y < x ? y : x;
  }
}
}  // namespace arch

}  // namespace bbx
