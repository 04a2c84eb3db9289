#include "../row_scale.hip"
#include "common.hpp"

using namespace bbx_inst;
// RowScale(n=256, norm="l1")
struct RowScaleMeta {
  using self_n = bbx::Int<256>;
  static constexpr bool self_norm_eq_l1 = true;
  using self_threads = bbx::Int<32>;
  using self_vec = bbx::Int<8>;
};
template void bbx_gen::py_row_scale::RowScale_call<RowScaleMeta, Mat, Mat>(Mat, Mat, float, bbx::Stream);
