// bbx/numeric/half.hpp — half_t (IEEE binary16) and bfloat16_t, portable, bit-exact with torch.
//
// Both types store their 16 bits and compute in float (like CUTLASS's half_t/bfloat16_t).
// Conversions from float round to nearest even:
//   * half_t: on AMD device code the native `_Float16` conversion (v_cvt_f16_f32), on CUDA device
//     code `__float2half_rn` (platform/half_hooks.hpp); elsewhere the portable integer routine
//     (numeric/half_bits.hpp). All agree bit for bit
//     on every non-NaN input (checked against torch on the host, and on an H200 against the
//     portable routine). NaN: the portable routine and AMD keep the sign and top payload bits with
//     the quiet bit set (torch CPU / F16C); CUDA returns its canonical NaN, as torch's CUDA kernels.
//   * bfloat16_t: the integer routine everywhere except CUDA device code (`__float2bfloat16_rn`,
//     like torch's CUDA kernels; NaN -> 0x7FFF there). Elsewhere NaN becomes 0x7FC0 — torch's
//     scalar rule (c10::BFloat16, also its ROCm kernels); torch's vectorised CPU kernels give 0xFFFF.
#pragma once

#include <cstdint>

#include "bbx/config.hpp"
#include "bbx/numeric/half_bits.hpp"
#include "bbx/platform/half_hooks.hpp"

namespace bbx {

namespace detail {

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
