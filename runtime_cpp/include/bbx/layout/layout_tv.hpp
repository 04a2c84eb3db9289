// bbx/layout/layout_tv.hpp — make_layout_tv(thr_layout, val_layout) as in the CuTe DSL:
//   layout_mn = raked_product(thr_layout, val_layout)           (M,N) tile <- (thr, val) interleaved
//   layout_tv = composition(right_inverse(layout_mn), (T,V):(1,T))   (thread, value) -> tile index
//   tiler_mn  = product_each(shape(layout_mn))
// Returns tuple(tiler_mn, layout_tv); the tile index is column-major in tiler_mn.
#pragma once

#include "inverse.hpp"
#include "product.hpp"

namespace bbx {

template <class TS, class TD, class VS, class VD>
BBX_HOST_DEVICE constexpr auto make_layout_tv(Layout<TS, TD> const& thr_layout,
                                              Layout<VS, VD> const& val_layout) {
  auto layout_mn = raked_product(thr_layout, val_layout);
  auto thr_size = size(thr_layout);
  auto val_size = size(val_layout);
  auto tmp = make_layout(make_shape(thr_size, val_size), make_stride(_1{}, thr_size));
  auto layout_tv = composition(right_inverse(layout_mn), tmp);
  auto tiler_mn = product_each(layout_mn.shape());
  return make_tuple(tiler_mn, layout_tv);
}

}  // namespace bbx
