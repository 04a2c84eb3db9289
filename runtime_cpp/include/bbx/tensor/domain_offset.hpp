// bbx/tensor/domain_offset.hpp — domain_offset(coord, t): the same layout, its origin moved to
// `coord` (the element t(coord) becomes element 0).
#pragma once

#include "bbx/tensor/tensor.hpp"

namespace bbx {

template <class Crd, class E, class L>
BBX_HOST_DEVICE constexpr auto domain_offset(Crd const& coord, Tensor<E, L> const& t) {
  return make_tensor(detail::iter_add<1>(t.data(), t.layout()(coord)), t.layout());
}

}  // namespace bbx
