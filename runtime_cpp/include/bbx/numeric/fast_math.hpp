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
// CUDA (device pass): the __expf / exp2f / __logf / rsqrtf / __fdividef intrinsics.
// 16-bit floats compute in float and round once.
#pragma once

#include <cmath>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/numeric/math.hpp"

namespace bbx {

namespace detail {
inline constexpr float kLog2e = 1.4426950408889634f;
inline constexpr float kLn2 = 0.6931471805599453f;

// Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): used where the target has no libm.
BBX_HOST_DEVICE float erf_poly(float x) {
  const float s = x < 0.0f ? -1.0f : 1.0f;
  const float a = x < 0.0f ? -x : x;
  const float t = 1.0f / (1.0f + 0.3275911f * a);
  const float p =
      t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
#if defined(BBX_TARGET_AMD)
  return s * (1.0f - p * __builtin_expf(-a * a));
#else
  return s * (1.0f - p * ::expf(-a * a));
#endif
}

// CUDA: one MUFU.EX2 (ex2.approx.ftz: subnormal results flush to zero, as fastmath allows);
// exp2f is ex2.approx without ftz, which ptxas wraps in a range test and two multiplies to
// produce subnormals (3 more instructions per exponential in an attention main loop).
BBX_HOST_DEVICE float fast_exp2_f32(float x) {
#if defined(BBX_TARGET_AMD) && defined(__HIP_DEVICE_COMPILE__)
  return __builtin_amdgcn_exp2f(x);
#elif defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  return ::exp2f(x);
#endif
}
BBX_HOST_DEVICE float fast_log2_f32(float x) {
#if defined(BBX_TARGET_AMD) && defined(__HIP_DEVICE_COMPILE__)
  return __builtin_amdgcn_logf(x);
#elif defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  return ::__log2f(x);
#else
  return ::log2f(x);
#endif
}
BBX_HOST_DEVICE float fast_exp_f32(float x) {
#if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  return ::__expf(x);
#elif defined(BBX_TARGET_AMD) && defined(__HIP_DEVICE_COMPILE__)
  return __builtin_amdgcn_exp2f(x * kLog2e);
#else
  return ::expf(x);
#endif
}
BBX_HOST_DEVICE float fast_log_f32(float x) {
#if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  return ::__logf(x);
#elif defined(BBX_TARGET_AMD) && defined(__HIP_DEVICE_COMPILE__)
  return __builtin_amdgcn_logf(x) * kLn2;
#else
  return ::logf(x);
#endif
}
BBX_HOST_DEVICE float fast_rsqrt_f32(float x) {
#if defined(BBX_TARGET_AMD) && defined(__HIP_DEVICE_COMPILE__)
  return __builtin_amdgcn_rsqf(x);
#elif defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  return ::rsqrtf(x);
#else
  return 1.0f / ::sqrtf(x);
#endif
}
BBX_HOST_DEVICE float fast_sqrt_f32(float x) {
#if defined(BBX_TARGET_AMD) && defined(__HIP_DEVICE_COMPILE__)
  return __builtin_amdgcn_sqrtf(x);
#elif defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  return ::__fsqrt_rn(x);
#else
  return ::sqrtf(x);
#endif
}
BBX_HOST_DEVICE float rcp_f32(float x) {
#if defined(BBX_TARGET_AMD) && defined(__HIP_DEVICE_COMPILE__)
  return __builtin_amdgcn_rcpf(x);
#elif defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  return ::__fdividef(1.0f, x);
#else
  return 1.0f / x;
#endif
}
BBX_HOST_DEVICE float fast_tanh_f32(float x) {
  // tanh(x) = 1 - 2 / (exp(2x) + 1): saturates to +-1 at +-inf
  return 1.0f - 2.0f * rcp_f32(fast_exp2_f32(2.0f * kLog2e * x) + 1.0f);
}
}  // namespace detail

template <class T>
  requires(is_floating_v<T>)
BBX_HOST_DEVICE T erf(T x) {
#if defined(BBX_TARGET_AMD)
  return to<T>(detail::erf_poly(static_cast<float>(x)));
#else
  if constexpr (std::is_same_v<T, double>) return ::erf(x);
  else return to<T>(::erff(static_cast<float>(x)));
#endif
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
