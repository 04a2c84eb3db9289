#include "../rmsnorm.hip"
#include "common.hpp"

using namespace bbx_inst;
using MatBf16 = decltype(make_tensor(make_gmem_ptr<16>((bbx::bfloat16_t*)nullptr),
                                     make_layout(make_shape(128, 256), make_stride(256, _1{}))));
// RMSNorm(max_n=16384) on bf16
struct RMSNormMeta {
  using self_num_warps = bbx::Int<8>;
  using self_max_n = bbx::Int<16384>;
  using self_threads = bbx::Int<256>;
};
template void bbx_gen::rmsnorm::RMSNorm_call<RMSNormMeta, MatBf16, MatBf16, MatBf16>(
    MatBf16, MatBf16, MatBf16, float, bbx::Stream);
