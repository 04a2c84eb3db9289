// bbx/arch/mma_amd_common.hpp — shared by the generated MFMA structs (arch/mma_amd.hpp):
// operand formats (the architecture masks and BBX_MFMA_ARCH: platform/amd_targets.hpp).
#pragma once

#include <cstdint>

#include "bbx/arch/mma.hpp"
#include "bbx/config.hpp"
#include "bbx/platform/amd_targets.hpp"  // mfma_arch, BBX_MFMA_ARCH

namespace bbx::arch {

// The registers of one lane: element e of an operand is bits [e*w, e*w+w) of its VGPRs.
template <class T, int N>
using mfma_regs = reg_array<T, N>;

// How an operand's elements are encoded.
//   fp8_arch: the "fp8" of the fp8_fp8 instructions — E4M3FNUZ on gfx942, E4M3FN (OCP) on gfx950.
//   The f8f6f4 instructions take their A/B formats from codes (mfma_f8f6f4_format).
enum class mfma_format : int {
  f16,
  bf16,
  f32,
  i8,
  i32,
  fp8_arch,
  fp8_e4m3fnuz,
  fp8_e4m3fn,
  bf8_e5m2,
  fp6_e2m3,
  bf6_e3m2,
  fp4_e2m1,
};

BBX_HOST_DEVICE constexpr int mfma_format_bits(mfma_format f) {
  switch (f) {
    case mfma_format::f16:
    case mfma_format::bf16: return 16;
    case mfma_format::f32:
    case mfma_format::i32: return 32;
    case mfma_format::fp6_e2m3:
    case mfma_format::bf6_e3m2: return 6;
    case mfma_format::fp4_e2m1: return 4;
    default: return 8;
  }
}

// cbsz / blgp codes of the f8f6f4 instructions.
BBX_HOST_DEVICE constexpr mfma_format mfma_f8f6f4_format(int code) {
  return code == 0   ? mfma_format::fp8_e4m3fn
         : code == 1 ? mfma_format::bf8_e5m2
         : code == 2 ? mfma_format::fp6_e2m3
         : code == 3 ? mfma_format::bf6_e3m2
                     : mfma_format::fp4_e2m1;
}

}  // namespace bbx::arch

namespace bbx {
// The emulation layouts of each instruction (atom/mma_traits_amd.hpp).
template <class Op>
struct MfmaLayouts;
}  // namespace bbx
