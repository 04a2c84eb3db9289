// lane_ops::lane_ops_kernel (lane_ops_kernels.hpp) and the m16n8-exact MMA indexed by
// thread_idx() compiled for AMD gfx942 / gfx950 (clang, device only) by
// tests/mma/test_lane_renaming_device.py, renamed (Renamed = true; the exact MMA by
// -DBBX_LANE_RENAMING, the functions' default).
#include "lane_ops_kernels.hpp"
#include "mma_exact_kernels.hpp"

// config.hpp's header-free BBX_GLOBAL cannot follow `template <...>`: spell the attribute out.
#if defined(BBX_HIP_HEADER_FREE)
#  define MMA_GLOBAL __attribute__((global))
#else
#  define MMA_GLOBAL BBX_GLOBAL
#endif

namespace lane_ops_device {
using namespace bbx;

MMA_GLOBAL void BBX_LAUNCH_BOUNDS(block_threads_t<_256>) bbx_lane_ops(int const* __restrict__ in, int* __restrict__ out) {
  lane_ops::lane_ops_kernel<true>(in, out);
}

// NVIDIA's quad reduction (flash attention's row max) alone
MMA_GLOBAL void BBX_LAUNCH_BOUNDS(block_threads_t<_128>) bbx_quad_max(float const* __restrict__ in, float* __restrict__ out) {
  const int t = int(arch::thread_idx<true>().x);
  float r = in[t];
  BBX_UNROLL
  for (int m = 2; m >= 1; m >>= 1) {
    const float s = arch::shuffle_sync_bfly<true>(r, m, arch::mask_and_clamp(31));
    r = r > s ? r : s;
  }
  out[t] = r;
}

MMA_GLOBAL void BBX_LAUNCH_BOUNDS(block_threads_t<_128>)
    bbx_exact_gemm_by_thread_idx(half_t const* __restrict__ a, half_t const* __restrict__ b, float* __restrict__ c) {
  exact_test::exact_gemm<half_t, arch::MFMA_F32_16x16x16_F16, 4, 4, 2, false>(a, b, c);
}
}  // namespace lane_ops_device
