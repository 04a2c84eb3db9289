// The m16n8-exact MMA (mma_exact_kernels.hpp) compiled for AMD gfx942 / gfx950 (clang, device
// only) by tests/mma/test_mma_exact_device.py, which inspects the code: MFMA 16x16x16 with no
// cross-lane instruction and no scratch.
#include "mma_exact_kernels.hpp"

// config.hpp's header-free BBX_GLOBAL cannot follow `template <...>`: spell the attribute out.
#if defined(BBX_HIP_HEADER_FREE)
#  define MMA_GLOBAL __attribute__((global))
#else
#  define MMA_GLOBAL BBX_GLOBAL
#endif

namespace mma_exact_device {
using namespace bbx;

// 4 warps along M (two waves), N 32 (MMA_N 4), K 32 (two k16 blocks): 2 waves x 2 N pairs x
// 2 M tiles x 2 k blocks = 8 MFMAs per wave
template <class AB, class Mfma>
MMA_GLOBAL void BBX_LAUNCH_BOUNDS(block_threads_t<_128>)
    bbx_exact_gemm(AB const* __restrict__ a, AB const* __restrict__ b, float* __restrict__ c) {
  exact_test::exact_gemm<AB, Mfma, 4, 4, 2>(a, b, c);
}
template MMA_GLOBAL void bbx_exact_gemm<half_t, arch::MFMA_F32_16x16x16_F16>(half_t const*, half_t const*, float*);
template MMA_GLOBAL void bbx_exact_gemm<bfloat16_t, arch::MFMA_F32_16x16x16_BF16>(bfloat16_t const*,
                                                                                   bfloat16_t const*, float*);
}  // namespace mma_exact_device
