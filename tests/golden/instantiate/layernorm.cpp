#include "../layernorm.hip"
#include "common.hpp"

using namespace bbx_inst;
// LayerNorm(8192) on f32 with weight and bias: one 256-thread block per row, the whole row in
// registers.
struct LayerNormMeta {
  static constexpr bool self_padded = false;
  using self_shuffle_steps = bbx::Int<5>;
  static constexpr bool self_warps_per_row_gt_1 = true;
  using self_warps_per_row = bbx::Int<8>;
  using self_tile_n = bbx::Int<8192>;
  using self_threads_per_row = bbx::Int<256>;
  using self_rows_per_block = bbx::Int<1>;
  using self_tiles = bbx::Int<1>;
  using self_smem_cache_bytes = bbx::Int<196608>;
  static constexpr bool self_tiles_eq_1 = true;
  static constexpr bool mW_is_not_None = true;
  static constexpr bool mB_is_not_None = true;
  static constexpr bool mW_is_not_None_2 = true;
  static constexpr bool mB_is_not_None_2 = true;
  using self_n_align = bbx::Int<16>;
  using self_reduction_bytes = bbx::Int<64>;
  using self_threads = bbx::Int<256>;
};
// LayerNorm(1000) on f32: one warp per row, 4 rows per block, the row's last vectors padding.
struct LayerNormPaddedMeta {
  static constexpr bool self_padded = true;
  using self_shuffle_steps = bbx::Int<5>;
  static constexpr bool self_warps_per_row_gt_1 = false;
  using self_warps_per_row = bbx::Int<1>;
  using self_tile_n = bbx::Int<1024>;
  using self_threads_per_row = bbx::Int<32>;
  using self_rows_per_block = bbx::Int<4>;
  using self_tiles = bbx::Int<1>;
  using self_smem_cache_bytes = bbx::Int<196608>;
  static constexpr bool self_tiles_eq_1 = true;
  static constexpr bool mW_is_not_None = true;
  static constexpr bool mB_is_not_None = true;
  static constexpr bool mW_is_not_None_2 = true;
  static constexpr bool mB_is_not_None_2 = true;
  using self_n_align = bbx::Int<8>;
  using self_reduction_bytes = bbx::Int<32>;
  using self_threads = bbx::Int<128>;
};
template void bbx_gen::py_layernorm::LayerNorm_call<LayerNormMeta, Mat, Mat, Mat, Mat>(
    Mat, Mat, Mat, Mat, float, bbx::Stream);
template void bbx_gen::py_layernorm::LayerNorm_call<LayerNormPaddedMeta, Mat, Mat, Mat, Mat>(
    Mat, Mat, Mat, Mat, float, bbx::Stream);
