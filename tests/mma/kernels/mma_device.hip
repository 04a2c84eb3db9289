// The MMA layer compiled for AMD (gfx942, gfx950: clang, device only) and CUDA (sm_90: nvcc) by
// tests/mma/test_mma_device.py, which inspects the code: the GEMM kernel of gemm_kernels.hpp
// through the DSL's warp.MmaF16BF16Op (MFMA atoms on AMD, mma.sync on CUDA), cpasync copies
// (global_load_lds on gfx950, cp.async on CUDA), LdMatrix s2r copies; and a tile/ kernel.
#include "gemm_kernels.hpp"
#include "tile_kernels.hpp"

// config.hpp's header-free BBX_GLOBAL cannot follow `template <...>`: spell the attribute out.
#if defined(BBX_HIP_HEADER_FREE)
#  define MMA_GLOBAL __attribute__((global))
#else
#  define MMA_GLOBAL BBX_GLOBAL
#endif

namespace mma_device {
using namespace bbx;

template <class AB>
using WarpMma = decltype(make_tiled_mma(MmaF16BF16Op(type_c<AB>{}, type_c<float>{}, make_shape(_16{}, _8{}, _16{})),
                                        make_layout(make_shape(_2{}, _2{}, _1{})), make_tile(_32{}, _32{}, _16{})));

template <class AB>
MMA_GLOBAL void BBX_LAUNCH_BOUNDS(block_threads_t<_128>)
    bbx_mma_gemm(AB const* __restrict__ a, AB const* __restrict__ b, float* __restrict__ c, int m, int n, int k) {
  gemm_test::gemm_kernel<true, AB>(a, b, c, m, n, k, WarpMma<AB>{});
}
template MMA_GLOBAL void bbx_mma_gemm<half_t>(half_t const*, half_t const*, float*, int, int, int);
template MMA_GLOBAL void bbx_mma_gemm<bfloat16_t>(bfloat16_t const*, bfloat16_t const*, float*, int, int, int);

template <class AB>
MMA_GLOBAL void BBX_LAUNCH_BOUNDS(block_threads_t<_128>)
    bbx_fma_gemm(AB const* __restrict__ a, AB const* __restrict__ b, float* __restrict__ c, int m, int n, int k) {
  gemm_test::fma_kernel<AB>(a, b, c, m, n, k);
}
template MMA_GLOBAL void bbx_fma_gemm<half_t>(half_t const*, half_t const*, float*, int, int, int);

#if !defined(BBX_TARGET_CUDA)  // bbx::tile is MFMA (AMD) work
template <class T>
MMA_GLOBAL void BBX_LAUNCH_BOUNDS(block_threads_t<_256>)
    bbx_tile_gemm(T const* __restrict__ a, T const* __restrict__ b, float* __restrict__ c, int m, int n, int k) {
  tile_test::tile_gemm_kernel<T>(a, b, c, m, n, k);
}
template MMA_GLOBAL void bbx_tile_gemm<half_t>(half_t const*, half_t const*, float*, int, int, int);
template MMA_GLOBAL void bbx_tile_gemm<bfloat16_t>(bfloat16_t const*, bfloat16_t const*, float*, int, int, int);
#endif
}  // namespace mma_device
