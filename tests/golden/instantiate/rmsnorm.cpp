#include "../rmsnorm.hip"
#include "common.hpp"

using namespace bbx_inst;
using MatBf16 = decltype(make_tensor(make_gmem_ptr<16>((bbx::bfloat16_t*)nullptr),
                                     make_layout(make_shape(128, 256), make_stride(256, _1{}))));
// RMSNorm(8192) on bf16: one 256-thread block per row, the whole row in registers.
struct RMSNormMeta {
  using self_shuffle_steps = bbx::Int<5>;
  static constexpr bool self_warps_per_row_gt_1 = true;
  using self_warps_per_row = bbx::Int<8>;
  using self_threads_per_row = bbx::Int<256>;
  using self_rows_per_block = bbx::Int<1>;
  using self_tile_n = bbx::Int<8192>;
  static constexpr bool self_tiles_eq_1 = true;
  using self_tiles = bbx::Int<1>;
  using self_smem_cache_bytes = bbx::Int<196608>;
  using self_n_align = bbx::Int<16>;
  using self_reduction_bytes = bbx::Int<32>;
  using self_threads = bbx::Int<256>;
};
template void bbx_gen::py_rmsnorm::RMSNorm_call<RMSNormMeta, MatBf16, MatBf16, MatBf16>(
    MatBf16, MatBf16, MatBf16, float, bbx::Stream);
