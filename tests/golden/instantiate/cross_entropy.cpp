#include "../cross_entropy.hip"
#include "common.hpp"

using namespace bbx_inst;
using Labels = decltype(make_tensor(make_gmem_ptr((long long*)nullptr), make_layout(make_shape(128))));
// CrossEntropy(ignore_index=-100, max_n=16384) on f32 logits, int64 labels
struct CrossEntropyMeta {
  using self_num_warps = bbx::Int<8>;
  using self_max_n = bbx::Int<16384>;
  using self_ignore_index = bbx::Int<-100>;
  using self_threads = bbx::Int<256>;
};
template void bbx_gen::cross_entropy::CrossEntropy_call<CrossEntropyMeta, Vec, Mat, Labels>(
    Vec, Mat, Labels, bbx::Stream);
