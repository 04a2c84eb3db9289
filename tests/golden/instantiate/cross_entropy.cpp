#include "../cross_entropy.hip"
#include "common.hpp"

using namespace bbx_inst;
using Labels = decltype(make_tensor(make_gmem_ptr((long long*)nullptr), make_layout(make_shape(128))));
// CrossEntropy(8192, ignore_index=-100) on f32 logits, int64 labels: one 256-thread block per
// row, one tile.
struct CrossEntropyMeta {
  using self_shuffle_steps = bbx::Int<5>;
  static constexpr bool self_warps_per_row_gt_1 = true;
  using self_warps_per_row = bbx::Int<8>;
  using self_rows_per_block = bbx::Int<1>;
  using self_threads_per_row = bbx::Int<256>;
  using self_tile_n = bbx::Int<8192>;
  using self_tiles = bbx::Int<1>;
  using self_ignore_index = bbx::Int<-100>;
  using self_n_align = bbx::Int<16>;
  using self_reduction_bytes = bbx::Int<64>;
  using self_threads = bbx::Int<256>;
};
template void bbx_gen::py_cross_entropy::CrossEntropy_call<CrossEntropyMeta, Vec, Mat, Labels>(
    Vec, Mat, Labels, bbx::Stream);
