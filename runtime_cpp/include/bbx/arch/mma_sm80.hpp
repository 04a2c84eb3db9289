// bbx/arch/mma_sm80.hpp — NVIDIA warp-level MMA (mma.sync, Ampere and later), one struct per
// instruction, as the DSL's `warp.MmaF16BF16Op` lowers on the CUDA target:
//   SM80_16x8x16_F32F16F16F32_TN    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
//   SM80_16x8x16_F32BF16BF16F32_TN  mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
//   SM80_16x8x16_F16F16F16F16_TN    mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// Registers per thread (32 threads): A 8 x 16-bit (4 words), B 4 x 16-bit (2 words), C/D 4 x f32
// (or 4 x f16 in 2 words). Other targets: a static error when the instruction is used.
#pragma once

#include <cstdint>

#include "bbx/arch/mma.hpp"
#include "bbx/config.hpp"

namespace bbx::arch {

namespace detail {
template <class T, int N>
BBX_HOST_DEVICE void words_of(reg_array<T, N> const& r, std::uint32_t (&w)[N * sizeof(T) / 4]) {
  __builtin_memcpy(w, &r, sizeof(r));
}
}  // namespace detail

#define BBX_SM80_MMA_16816(NAME, AB, CD, PTX_TYPES)                                                 \
  struct NAME {                                                                                     \
    static constexpr int M = 16, N = 8, K = 16;                                                     \
    using ARegisters = reg_array<AB, 8>;                                                            \
    using BRegisters = reg_array<AB, 4>;                                                            \
    using CRegisters = reg_array<CD, 4>;                                                            \
    using DRegisters = CRegisters;                                                                  \
    template <class Self = NAME>                                                                    \
    BBX_HOST_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b,        \
                                    CRegisters const& c) {                                          \
      BBX_SM80_MMA_BODY(Self, CD, PTX_TYPES)                                                        \
    }                                                                                               \
  };

#if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
#  if __CUDA_ARCH__ >= 800
#    define BBX_SM80_MMA_BODY(Self, CD, PTX_TYPES)                                                  \
      std::uint32_t aw[4], bw[2];                                                                   \
      detail::words_of(a, aw);                                                                      \
      detail::words_of(b, bw);                                                                      \
      if constexpr (sizeof(CD) == 4) {                                                              \
        float const* cf = reinterpret_cast<float const*>(&c);                                       \
        float* df = reinterpret_cast<float*>(&d);                                                   \
        asm volatile("mma.sync.aligned.m16n8k16.row.col." PTX_TYPES                                 \
                     " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"                 \
                     : "=f"(df[0]), "=f"(df[1]), "=f"(df[2]), "=f"(df[3])                           \
                     : "r"(aw[0]), "r"(aw[1]), "r"(aw[2]), "r"(aw[3]), "r"(bw[0]), "r"(bw[1]),      \
                       "f"(cf[0]), "f"(cf[1]), "f"(cf[2]), "f"(cf[3]));                             \
      } else {                                                                                      \
        std::uint32_t cw[2], dw[2];                                                                 \
        __builtin_memcpy(cw, &c, sizeof(cw));                                                       \
        asm volatile("mma.sync.aligned.m16n8k16.row.col." PTX_TYPES                                 \
                     " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};\n"                                 \
                     : "=r"(dw[0]), "=r"(dw[1])                                                     \
                     : "r"(aw[0]), "r"(aw[1]), "r"(aw[2]), "r"(aw[3]), "r"(bw[0]), "r"(bw[1]),      \
                       "r"(cw[0]), "r"(cw[1]));                                                     \
        __builtin_memcpy(&d, dw, sizeof(dw));                                                       \
      }
#  else
#    define BBX_SM80_MMA_BODY(Self, CD, PTX_TYPES) \
      static_assert(dependent_false<Self>, "mma.sync m16n8k16 needs sm_80 or later");
#  endif
#elif defined(BBX_TARGET_CUDA)
#  define BBX_SM80_MMA_BODY(Self, CD, PTX_TYPES) (void)d, (void)a, (void)b, (void)c;  // host pass
#else
#  define BBX_SM80_MMA_BODY(Self, CD, PTX_TYPES)                                                    \
    static_assert(dependent_false<Self>,                                                            \
                  "mma.sync m16n8k16 is an NVIDIA instruction; on AMD and the simulator the DSL's " \
                  "warp.MmaF16BF16Op becomes an MFMA atom (make_tiled_mma)");
#endif

BBX_SM80_MMA_16816(SM80_16x8x16_F32F16F16F32_TN, half_t, float, "f32.f16.f16.f32")
BBX_SM80_MMA_16816(SM80_16x8x16_F32BF16BF16F32_TN, bfloat16_t, float, "f32.bf16.bf16.f32")
BBX_SM80_MMA_16816(SM80_16x8x16_F16F16F16F16_TN, half_t, half_t, "f16.f16.f16.f16")

#undef BBX_SM80_MMA_16816
#undef BBX_SM80_MMA_BODY

}  // namespace bbx::arch
