// bbx/platform/sm80_hooks.hpp — the hooks of NVIDIA's warp instructions (arch/mma_sm80.hpp,
// arch/copy_sm75.hpp):
//   arch::mma_sync_m16n8k16<Op, AB, CD>(d, a, b, c)   mma.sync m16n8k16 (sm_80+)
//   arch::ldmatrix<NumMatrices, Transpose, Op>(smem_addr, r)   ldmatrix (sm_75+)
//   arch::has_mma_sync, arch::has_ldmatrix              whether the target has them (CUDA;
//                                                       -DBBX_NO_CUDA_LDMATRIX: no ldmatrix)
//   arch::shared_window_address(p)                      a shared-memory pointer as ldmatrix's
//                                                       32-bit address
// The instructions on CUDA (platform/cuda/sm80_hooks.hpp); on AMD and the simulator, a static
// error naming the instruction when it is used.
#pragma once

#include <cstdint>

#include "bbx/config.hpp"

#if defined(BBX_TARGET_CUDA)
#  include "bbx/platform/cuda/sm80_hooks.hpp"
#else
namespace bbx::arch {
// The DSL's warp.MmaF16BF16Op is NVIDIA's mma.sync here only through MFMA atoms (atom/mma_dsl.hpp).
inline constexpr bool has_mma_sync = false;
inline constexpr bool has_ldmatrix = false;
BBX_HOST_DEVICE std::uint32_t shared_window_address(void const* p) {
  return static_cast<std::uint32_t>(reinterpret_cast<unsigned long long>(p));
}

template <class Op, class AB, class CD, class D, class A, class B, class C>
BBX_HOST_DEVICE void mma_sync_m16n8k16(D& d, A const& a, B const& b, C const& c) {
  (void)d, (void)a, (void)b, (void)c;
  static_assert(dependent_false<Op>,
                "mma.sync m16n8k16 is an NVIDIA instruction; on AMD and the simulator the DSL's "
                "warp.MmaF16BF16Op becomes an MFMA atom (make_tiled_mma)");
}
template <int NumMatrices, bool Transpose, class Op>
BBX_HOST_DEVICE void ldmatrix(std::uint32_t smem_addr, std::uint32_t (&r)[NumMatrices]) {
  (void)smem_addr, (void)r;
  static_assert(dependent_false<Op>,
                "ldmatrix is an NVIDIA instruction (AMD: LDS reads in the MFMA layout)");
}
}  // namespace bbx::arch
#endif
