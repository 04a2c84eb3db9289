// bbx/numeric/half_bits.hpp — the portable float <-> binary16 / bfloat16 bit conversions (round
// to nearest even), constexpr: what half_t and bfloat16_t use wherever the target has no
// conversion instruction of its own (platform/half_hooks.hpp).
#pragma once

#include <cstdint>

#include "bbx/config.hpp"

namespace bbx::detail {

BBX_HOST_DEVICE constexpr std::uint32_t f32_bits(float f) { return __builtin_bit_cast(std::uint32_t, f); }
BBX_HOST_DEVICE constexpr float f32_from_bits(std::uint32_t u) { return __builtin_bit_cast(float, u); }

// float -> binary16, round to nearest even (portable reference).
BBX_HOST_DEVICE constexpr std::uint16_t f32_to_f16_bits_rne(float f) {
  const std::uint32_t x = f32_bits(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) {  // inf or NaN
    if (ax > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
    return static_cast<std::uint16_t>(sign | 0x7c00u);
  }
  if (ax >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65520: rounds to inf
  if (ax < 0x38800000u) {  // below 2^-14: half subnormal (or zero)
    if (ax <= 0x33000000u) return static_cast<std::uint16_t>(sign);  // <= 2^-25 rounds to 0
    const std::uint32_t e = ax >> 23;
    const std::uint32_t m = (ax & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126u - e;  // 14..24
    std::uint32_t r = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
    return static_cast<std::uint16_t>(sign | r);
  }
  std::uint32_t r = (ax >> 13) - (112u << 10);
  const std::uint32_t rem = ax & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;  // carries into the exponent correctly
  return static_cast<std::uint16_t>(sign | r);
}

// binary16 -> float (exact; a signalling NaN comes back quiet, as with F16C / v_cvt_f32_f16).
BBX_HOST_DEVICE constexpr float f16_bits_to_f32(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t e = (h >> 10) & 0x1fu;
  const std::uint32_t m = h & 0x3ffu;
  if (e == 0x1fu) return f32_from_bits(sign | (m ? 0x7fc00000u : 0x7f800000u) | (m << 13));  // NaN: quieted
  if (e == 0) {
    if (m == 0) return f32_from_bits(sign);
    const float v = static_cast<float>(m) * 5.9604644775390625e-8f;  // m * 2^-24, exact
    return sign ? -v : v;
  }
  return f32_from_bits(sign | ((e + 112u) << 23) | (m << 13));
}

// float -> bfloat16, round to nearest even; NaN -> 0x7FC0 (c10::BFloat16's rule).
BBX_HOST_DEVICE constexpr std::uint16_t f32_to_bf16_bits_rne(float f) {
  const std::uint32_t x = f32_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fc0u;
  const std::uint32_t bias = ((x >> 16) & 1u) + 0x7fffu;
  return static_cast<std::uint16_t>((x + bias) >> 16);
}

BBX_HOST_DEVICE constexpr float bf16_bits_to_f32(std::uint16_t b) {
  return f32_from_bits(static_cast<std::uint32_t>(b) << 16);
}
}  // namespace bbx::detail
