// bbx/platform/libm_hooks.hpp — the C library's math per target (bbx/numeric/math.hpp,
// special_math.hpp). AMD device code without ROCm headers has no libm: clang builtins lower to
// instructions there (exp/log/sqrt/sin/cos/floor/ceil), the other float functions use bbx's
// portable forms (detail::portable, special_math.hpp) and double ones OCML's device library; CUDA
// and the host use the C library names.
//   BBX_LIBM(F)                         the target's name of C library function F
//   BBX_LIBM_SPECIAL_F32(F, PORTABLE)   float F (AMD header-free: detail::portable::PORTABLE)
//   BBX_LIBM_SPECIAL_F64(F, OCML)       double F (AMD header-free: __ocml_OCML_f64)
//   detail::libm_tanh / libm_tan / libm_log10 (x)
#pragma once

#include <cmath>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric/numeric_types.hpp"

#if defined(BBX_TARGET_AMD)
#  define BBX_LIBM(F) __builtin_##F
#else
#  define BBX_LIBM(F) ::F
#endif

#if defined(BBX_TARGET_AMD) && defined(BBX_HIP_HEADER_FREE)
#  define BBX_LIBM_SPECIAL_F32(F, PORTABLE) ::bbx::detail::portable::PORTABLE
#  define BBX_LIBM_SPECIAL_F64(F, OCML) __ocml_##OCML##_f64
#  define BBX_OCML_DECLARE(OCML) \
  extern "C" __attribute__((device, const)) double __ocml_##OCML##_f64(double);
#  define BBX_OCML_DECLARE2(OCML) \
  extern "C" __attribute__((device, const)) double __ocml_##OCML##_f64(double, double);
BBX_OCML_DECLARE(tan) BBX_OCML_DECLARE(asin) BBX_OCML_DECLARE(acos) BBX_OCML_DECLARE(atan)
BBX_OCML_DECLARE(sinh) BBX_OCML_DECLARE(cosh) BBX_OCML_DECLARE(asinh) BBX_OCML_DECLARE(acosh)
BBX_OCML_DECLARE(atanh) BBX_OCML_DECLARE(expm1) BBX_OCML_DECLARE(log1p) BBX_OCML_DECLARE(cbrt)
BBX_OCML_DECLARE(erfc) BBX_OCML_DECLARE(log10) BBX_OCML_DECLARE(sin) BBX_OCML_DECLARE(cos)
BBX_OCML_DECLARE2(atan2) BBX_OCML_DECLARE2(pow)
#  undef BBX_OCML_DECLARE
#  undef BBX_OCML_DECLARE2
#else
#  define BBX_LIBM_SPECIAL_F32(F, PORTABLE) ::F##f
#  define BBX_LIBM_SPECIAL_F64(F, OCML) ::F
#endif

namespace bbx::detail {

template <class T>
BBX_HOST_DEVICE T libm_tanh(T x) {
#if defined(BBX_TARGET_AMD)
  // no libm on the device: tanh(x) = 1 - 2 / (exp(2x) + 1) (saturates correctly at +-inf)
  const float f = static_cast<float>(x);
  return to<T>(1.0f - 2.0f / (__builtin_expf(2.0f * f) + 1.0f));
#else
  if constexpr (std::is_same_v<T, double>) return ::tanh(x);
  else return to<T>(::tanhf(static_cast<float>(x)));
#endif
}

// tan and log10 lower to instructions for float on every target (through sin, cos and log2 on
// AMD without ROCm).
template <class T>
BBX_HOST_DEVICE T libm_tan(T x) {
#if defined(BBX_TARGET_AMD) && defined(BBX_HIP_HEADER_FREE)
  if constexpr (std::is_same_v<T, double>) return __ocml_tan_f64(x);
  else {
    const float f = static_cast<float>(x);
    return to<T>(__builtin_sinf(f) / __builtin_cosf(f));
  }
#else
  if constexpr (std::is_same_v<T, double>) return ::tan(x);
  else return to<T>(::tanf(static_cast<float>(x)));
#endif
}
template <class T>
BBX_HOST_DEVICE T libm_log10(T x) {
#if defined(BBX_TARGET_AMD) && defined(BBX_HIP_HEADER_FREE)
  if constexpr (std::is_same_v<T, double>) return __ocml_log10_f64(x);
  else return to<T>(__builtin_log10f(static_cast<float>(x)));
#else
  if constexpr (std::is_same_v<T, double>) return ::log10(x);
  else return to<T>(::log10f(static_cast<float>(x)));
#endif
}

}  // namespace bbx::detail
