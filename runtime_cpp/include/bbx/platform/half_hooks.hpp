// bbx/platform/half_hooks.hpp — float -> half / bfloat16 conversions per target (used by
// bbx/numeric/half.hpp): AMD device code: the native `_Float16` conversion (v_cvt_f16_f32);
// CUDA device code: __float2half_rn, __float2bfloat16_rn (sm_80+); elsewhere the portable
// routines of numeric/half_bits.hpp.
#pragma once

#include <cstdint>

#include "bbx/config.hpp"
#include "bbx/numeric/half_bits.hpp"

#if defined(BBX_TARGET_CUDA)
#  include <cuda_fp16.h>
#  include <cuda_bf16.h>
#endif

namespace bbx::detail {

BBX_HOST_DEVICE std::uint16_t f32_to_f16_bits(float f) {
#if defined(BBX_TARGET_AMD) && defined(BBX_DEVICE_PASS)
  return __builtin_bit_cast(std::uint16_t, static_cast<_Float16>(f));
#elif defined(BBX_TARGET_CUDA) && defined(BBX_DEVICE_PASS)
  return __half_as_ushort(__float2half_rn(f));
#else
  return f32_to_f16_bits_rne(f);
#endif
}

BBX_HOST_DEVICE float f16_bits_to_f32(std::uint16_t h, int /*runtime*/) {
#if defined(BBX_TARGET_AMD) && defined(BBX_DEVICE_PASS)
  return static_cast<float>(__builtin_bit_cast(_Float16, h));
#elif defined(BBX_TARGET_CUDA) && defined(BBX_DEVICE_PASS)
  return __half2float(__ushort_as_half(h));
#else
  return f16_bits_to_f32(h);
#endif
}

BBX_HOST_DEVICE std::uint16_t f32_to_bf16_bits(float f) {
#if defined(BBX_TARGET_CUDA) && defined(BBX_DEVICE_PASS) && (__CUDA_ARCH__ >= 800)
  return __bfloat16_as_ushort(__float2bfloat16_rn(f));
#else
  return f32_to_bf16_bits_rne(f);
#endif
}

}  // namespace bbx::detail
