// bbx/numeric/half.hpp — half_t (IEEE binary16) and bfloat16_t, portable, bit-exact with torch.
//
// Both types store their 16 bits and compute in float (like CUTLASS's half_t/bfloat16_t).
// Conversions from float round to nearest even:
//   * half_t: on AMD device code the native `_Float16` conversion (v_cvt_f16_f32), on CUDA device
//     code `__float2half_rn`; elsewhere the portable integer routine below. All agree bit for bit
//     on every non-NaN input (checked against torch on the host, and on an H200 against the
//     portable routine). NaN: the portable routine and AMD keep the sign and top payload bits with
//     the quiet bit set (torch CPU / F16C); CUDA returns its canonical NaN, as torch's CUDA kernels.
//   * bfloat16_t: the integer routine everywhere except CUDA device code (`__float2bfloat16_rn`,
//     like torch's CUDA kernels; NaN -> 0x7FFF there). Elsewhere NaN becomes 0x7FC0 — torch's
//     scalar rule (c10::BFloat16, also its ROCm kernels); torch's vectorised CPU kernels give 0xFFFF.
#pragma once

#include <cstdint>

#include "bbx/config.hpp"

#if defined(BBX_TARGET_CUDA)
#  include <cuda_fp16.h>
#  include <cuda_bf16.h>
#endif

namespace bbx {

namespace detail {

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

struct from_bits_t {};

}  // namespace detail

// One macro defines both types (same shape): storage, conversions and float-computed arithmetic shared by half_t and bfloat16_t.
#define BBX_DEFINE_FLOAT16_TYPE(NAME, TO_BITS, TO_BITS_CONSTEXPR, TO_FLOAT)                         \
  struct alignas(2) NAME {                                                                         \
    std::uint16_t storage;                                                                         \
    NAME() = default;                                                                              \
    BBX_HOST_DEVICE constexpr NAME(detail::from_bits_t, std::uint16_t b) : storage(b) {}           \
    BBX_HOST_DEVICE explicit NAME(float f) : storage(TO_BITS(f)) {}                                 \
    BBX_HOST_DEVICE explicit NAME(double d) : storage(TO_BITS(static_cast<float>(d))) {}           \
    template <class I, class = decltype(static_cast<float>(I{}))>                                  \
    BBX_HOST_DEVICE explicit NAME(I i) : storage(TO_BITS(static_cast<float>(i))) {}                \
    BBX_HOST_DEVICE static constexpr NAME bitcast(std::uint16_t b) {                               \
      return NAME(detail::from_bits_t{}, b);                                                       \
    }                                                                                              \
    /* constexpr conversion (portable routine; usable in static initialisers) */                   \
    BBX_HOST_DEVICE static constexpr NAME from_float(float f) {                                    \
      return NAME(detail::from_bits_t{}, TO_BITS_CONSTEXPR(f));                                    \
    }                                                                                              \
    BBX_HOST_DEVICE constexpr std::uint16_t raw() const { return storage; }                        \
    BBX_HOST_DEVICE operator float() const { return TO_FLOAT(storage); }                 \
    BBX_HOST_DEVICE NAME& operator+=(NAME o) { return *this = NAME(float(*this) + float(o)); }     \
    BBX_HOST_DEVICE NAME& operator-=(NAME o) { return *this = NAME(float(*this) - float(o)); }     \
    BBX_HOST_DEVICE NAME& operator*=(NAME o) { return *this = NAME(float(*this) * float(o)); }     \
    BBX_HOST_DEVICE NAME& operator/=(NAME o) { return *this = NAME(float(*this) / float(o)); }     \
  };                                                                                               \
  BBX_HOST_DEVICE NAME operator+(NAME a, NAME b) { return NAME(float(a) + float(b)); }             \
  BBX_HOST_DEVICE NAME operator-(NAME a, NAME b) { return NAME(float(a) - float(b)); }             \
  BBX_HOST_DEVICE NAME operator*(NAME a, NAME b) { return NAME(float(a) * float(b)); }             \
  BBX_HOST_DEVICE NAME operator/(NAME a, NAME b) { return NAME(float(a) / float(b)); }             \
  BBX_HOST_DEVICE NAME operator-(NAME a) { return NAME::bitcast(a.storage ^ 0x8000u); }            \
  BBX_HOST_DEVICE NAME operator+(NAME a) { return a; }                                             \
  BBX_HOST_DEVICE bool operator==(NAME a, NAME b) { return float(a) == float(b); }                 \
  BBX_HOST_DEVICE bool operator!=(NAME a, NAME b) { return float(a) != float(b); }                 \
  BBX_HOST_DEVICE bool operator<(NAME a, NAME b) { return float(a) < float(b); }                   \
  BBX_HOST_DEVICE bool operator<=(NAME a, NAME b) { return float(a) <= float(b); }                 \
  BBX_HOST_DEVICE bool operator>(NAME a, NAME b) { return float(a) > float(b); }                   \
  BBX_HOST_DEVICE bool operator>=(NAME a, NAME b) { return float(a) >= float(b); }

namespace detail {
BBX_HOST_DEVICE float f16_to_f32_dispatch(std::uint16_t h) { return f16_bits_to_f32(h, 0); }
}  // namespace detail

// Mixed half/float arithmetic: `h + 1.0f` goes through the implicit conversion to float and
// yields float (C++ promotion rules); `h + h` yields half_t (computed in float, rounded once).
BBX_DEFINE_FLOAT16_TYPE(half_t, detail::f32_to_f16_bits, detail::f32_to_f16_bits_rne,
                        detail::f16_to_f32_dispatch)
BBX_DEFINE_FLOAT16_TYPE(bfloat16_t, detail::f32_to_bf16_bits, detail::f32_to_bf16_bits_rne,
                        detail::bf16_bits_to_f32)
#undef BBX_DEFINE_FLOAT16_TYPE

static_assert(sizeof(half_t) == 2 && alignof(half_t) == 2);
static_assert(sizeof(bfloat16_t) == 2 && alignof(bfloat16_t) == 2);

}  // namespace bbx
