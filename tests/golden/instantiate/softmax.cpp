#include "../softmax.hip"
#include "common.hpp"

using namespace bbx_inst;
// A row-major bf16 matrix with a dynamic shape and a static unit inner stride, 16-byte aligned.
using MatBf16 = decltype(make_tensor(make_gmem_ptr<16>((bbx::bfloat16_t*)nullptr),
                                     make_layout(make_shape(128, 256), make_stride(256, _1{}))));
// Softmax(8192, online=True) on bf16 and Softmax(8192) on f32: one 256-thread block per row
// (8 warps, their results meet in shared memory), the whole row in registers.
struct SoftmaxOnlineMeta {
  using self_shuffle_steps = bbx::Int<5>;
  static constexpr bool self_warps_per_row_gt_1 = true;
  using self_warps_per_row = bbx::Int<8>;
  using self_threads_per_row = bbx::Int<256>;
  using self_rows_per_block = bbx::Int<1>;
  using self_tile_n = bbx::Int<8192>;
  using self_tiles = bbx::Int<1>;
  using self_smem_cache_bytes = bbx::Int<196608>;
  static constexpr bool self_tiles_eq_1 = true;
  static constexpr bool self_online = true;
  using self_n_align = bbx::Int<16>;
  using self_reduction_bytes = bbx::Int<64>;
  using self_threads = bbx::Int<256>;
};
struct SoftmaxTwoPassMeta : SoftmaxOnlineMeta {
  static constexpr bool self_online = false;
};
template void bbx_gen::py_softmax::Softmax_call<SoftmaxOnlineMeta, MatBf16, MatBf16>(MatBf16, MatBf16, bbx::Stream);
template void bbx_gen::py_softmax::Softmax_call<SoftmaxTwoPassMeta, Mat, Mat>(Mat, Mat, bbx::Stream);
