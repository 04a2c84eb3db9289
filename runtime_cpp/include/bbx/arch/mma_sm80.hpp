// bbx/arch/mma_sm80.hpp — NVIDIA warp-level MMA (mma.sync, Ampere and later), one struct per
// instruction, as the DSL's `warp.MmaF16BF16Op` lowers on the CUDA target:
//   SM80_16x8x16_F32F16F16F32_TN    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
//   SM80_16x8x16_F32BF16BF16F32_TN  mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
//   SM80_16x8x16_F16F16F16F16_TN    mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// Registers per thread (32 threads): A 8 x 16-bit (4 words), B 4 x 16-bit (2 words), C/D 4 x f32
// (or 4 x f16 in 2 words). fma() calls the platform hook (platform/sm80_hooks.hpp): the PTX on
// CUDA, a static error on other targets when the instruction is used.
#pragma once

#include <cstdint>

#include "bbx/arch/mma.hpp"
#include "bbx/config.hpp"
#include "bbx/platform/sm80_hooks.hpp"

namespace bbx::arch {

#define BBX_SM80_MMA_16816(NAME, AB, CD)                                                            \
  struct NAME {                                                                                     \
    static constexpr int M = 16, N = 8, K = 16;                                                     \
    using ARegisters = reg_array<AB, 8>;                                                            \
    using BRegisters = reg_array<AB, 4>;                                                            \
    using CRegisters = reg_array<CD, 4>;                                                            \
    using DRegisters = CRegisters;                                                                  \
    template <class Self = NAME>                                                                    \
    BBX_HOST_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b,        \
                                    CRegisters const& c) {                                          \
      ::bbx::arch::mma_sync_m16n8k16<Self, AB, CD>(d, a, b, c);                                    \
    }                                                                                               \
  };

BBX_SM80_MMA_16816(SM80_16x8x16_F32F16F16F32_TN, half_t, float)
BBX_SM80_MMA_16816(SM80_16x8x16_F32BF16BF16F32_TN, bfloat16_t, float)
BBX_SM80_MMA_16816(SM80_16x8x16_F16F16F16F16_TN, half_t, half_t)

#undef BBX_SM80_MMA_16816

}  // namespace bbx::arch
