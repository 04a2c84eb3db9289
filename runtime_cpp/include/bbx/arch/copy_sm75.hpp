// bbx/arch/copy_sm75.hpp — NVIDIA ldmatrix (sm_75+), one struct per instruction form:
//   SM75_LDSM<NumMatrices, Transpose>   ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16
// Lane 8j + r supplies the shared address of row r of 8x8 matrix j (16 contiguous bytes); lane
// t receives, in register j, elements (t/4, 2(t%4)) and (t/4, 2(t%4)+1) of matrix j (.trans:
// elements (2(t%4), t/4) and (2(t%4)+1, t/4)). copy() calls the platform hook
// (platform/sm80_hooks.hpp): the PTX on CUDA, a static error on other targets when used.
#pragma once

#include <cstdint>

#include "bbx/config.hpp"
#include "bbx/platform/sm80_hooks.hpp"

namespace bbx::arch {

template <int NumMatrices, bool Transpose = false>
struct SM75_LDSM {
  static_assert(NumMatrices == 1 || NumMatrices == 2 || NumMatrices == 4, "ldmatrix loads 1, 2 or 4 matrices");
  static constexpr int num_matrices = NumMatrices;
  static constexpr bool transpose = Transpose;
  // smem_addr: this lane's row address (a shared-window address, __cvta_generic_to_shared)
  template <class Self = SM75_LDSM>
  BBX_HOST_DEVICE static void copy(std::uint32_t smem_addr, std::uint32_t (&r)[NumMatrices]) {
    ::bbx::arch::ldmatrix<NumMatrices, Transpose, Self>(smem_addr, r);
  }
};

}  // namespace bbx::arch
