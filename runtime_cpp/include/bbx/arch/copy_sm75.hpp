// bbx/arch/copy_sm75.hpp — NVIDIA ldmatrix (sm_75+), one struct per instruction form:
//   SM75_LDSM<NumMatrices, Transpose>   ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16
// Lane 8j + r supplies the shared address of row r of 8x8 matrix j (16 contiguous bytes); lane
// t receives, in register j, elements (t/4, 2(t%4)) and (t/4, 2(t%4)+1) of matrix j (.trans:
// elements (2(t%4), t/4) and (2(t%4)+1, t/4)). Other targets: a static error when used.
#pragma once

#include <cstdint>

#include "bbx/config.hpp"

namespace bbx::arch {

template <int NumMatrices, bool Transpose = false>
struct SM75_LDSM {
  static_assert(NumMatrices == 1 || NumMatrices == 2 || NumMatrices == 4, "ldmatrix loads 1, 2 or 4 matrices");
  static constexpr int num_matrices = NumMatrices;
  static constexpr bool transpose = Transpose;
  // smem_addr: this lane's row address (a shared-window address, __cvta_generic_to_shared)
  template <class Self = SM75_LDSM>
  BBX_HOST_DEVICE static void copy(std::uint32_t smem_addr, std::uint32_t (&r)[NumMatrices]) {
#if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
#  if __CUDA_ARCH__ >= 750
    if constexpr (NumMatrices == 1) {
      if constexpr (Transpose)
        asm volatile("ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(smem_addr));
      else
        asm volatile("ldmatrix.sync.aligned.x1.m8n8.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(smem_addr));
    } else if constexpr (NumMatrices == 2) {
      if constexpr (Transpose)
        asm volatile("ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(r[0]), "=r"(r[1]) : "r"(smem_addr));
      else
        asm volatile("ldmatrix.sync.aligned.x2.m8n8.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(r[0]), "=r"(r[1]) : "r"(smem_addr));
    } else {
      if constexpr (Transpose)
        asm volatile("ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr));
      else
        asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr));
    }
#  else
    static_assert(dependent_false<Self>, "ldmatrix needs sm_75 or later");
#  endif
#elif defined(BBX_TARGET_CUDA)
    (void)smem_addr, (void)r;  // host pass
#else
    static_assert(dependent_false<Self>, "ldmatrix is an NVIDIA instruction (AMD: LDS reads in the MFMA layout)");
#endif
  }
};

}  // namespace bbx::arch
