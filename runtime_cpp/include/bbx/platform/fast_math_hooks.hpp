// bbx/platform/fast_math_hooks.hpp — the fast math of bbx/numeric/fast_math.hpp per target:
// AMD device code: v_exp_f32 / v_log_f32 / v_rsq_f32 / v_rcp_f32 / v_sqrt_f32 through clang
// builtins; CUDA device code: ex2.approx.ftz, __expf, __logf, rsqrtf, __fdividef; elsewhere
// (host passes, the simulator) libm's precise functions.
#pragma once

#include <cmath>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric/numeric_types.hpp"

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

// erf(x): libm's where the target has it; AMD (no libm in header-free device code): erf_poly.
template <class T>
BBX_HOST_DEVICE T erf_of(T x) {
#if defined(BBX_TARGET_AMD)
  return to<T>(erf_poly(static_cast<float>(x)));
#else
  if constexpr (std::is_same_v<T, double>) return ::erf(x);
  else return to<T>(::erff(static_cast<float>(x)));
#endif
}
}  // namespace detail

}  // namespace bbx
