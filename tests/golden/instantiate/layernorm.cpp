#include "../layernorm.hip"
#include "common.hpp"

using namespace bbx_inst;
// LayerNorm(max_n=16384) on f32 with weight and bias
struct LayerNormMeta {
  using self_num_warps = bbx::Int<8>;
  using self_max_n = bbx::Int<16384>;
  static constexpr bool mW_is_not_None = true;
  static constexpr bool mB_is_not_None = true;
  using self_threads = bbx::Int<256>;
};
template void bbx_gen::layernorm::LayerNorm_call<LayerNormMeta, Mat, Mat, Mat, Mat>(
    Mat, Mat, Mat, Mat, float, bbx::Stream);
