// bbx/tensor/mode_ops.hpp — bbx/layout/mode_ops.hpp's helpers on tensors: the same iterator with
// the layout changed (append_ones, prepend_ones, filter).
#pragma once

#include "bbx/config.hpp"
#include "bbx/layout/mode_ops.hpp"
#include "bbx/tensor/tensor.hpp"

namespace bbx {

template <int N = 0, class Tn>
  requires(is_tensor_v<Tn>)
BBX_HOST_DEVICE constexpr auto append_ones(Tn const& t) {
  return make_tensor(t.data(), append_ones<N>(t.layout()));
}
template <int N = 0, class Tn>
  requires(is_tensor_v<Tn>)
BBX_HOST_DEVICE constexpr auto prepend_ones(Tn const& t) {
  return make_tensor(t.data(), prepend_ones<N>(t.layout()));
}
template <class Tn>
  requires(is_tensor_v<Tn>)
BBX_HOST_DEVICE constexpr auto filter(Tn const& t) {
  return make_tensor(t.data(), filter(t.layout()));
}

}  // namespace bbx
