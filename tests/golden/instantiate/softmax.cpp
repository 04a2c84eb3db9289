#include "../softmax.hip"
#include "common.hpp"

using namespace bbx_inst;
// A row-major bf16 matrix with a dynamic shape and a static unit inner stride, 16-byte aligned.
using MatBf16 = decltype(make_tensor(make_gmem_ptr<16>((bbx::bfloat16_t*)nullptr),
                                     make_layout(make_shape(128, 256), make_stride(256, _1{}))));
// Softmax(online=True, max_n=16384) on bf16 and Softmax(online=False) on f32
struct SoftmaxOnlineMeta {
  using self_num_warps = bbx::Int<8>;
  using self_max_n = bbx::Int<16384>;
  static constexpr bool self_online = true;
  using self_threads = bbx::Int<256>;
};
struct SoftmaxTwoPassMeta {
  using self_num_warps = bbx::Int<8>;
  using self_max_n = bbx::Int<16384>;
  static constexpr bool self_online = false;
  using self_threads = bbx::Int<256>;
};
template void bbx_gen::softmax::Softmax_call<SoftmaxOnlineMeta, MatBf16, MatBf16>(MatBf16, MatBf16, bbx::Stream);
template void bbx_gen::softmax::Softmax_call<SoftmaxTwoPassMeta, Mat, Mat>(Mat, Mat, bbx::Stream);
