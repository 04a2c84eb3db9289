// bbx/tensor/fill_values.hpp — register values filled with one number: full(shape, x) and the
// `*_like` forms on tensors and with an explicit element type (the DSL's `dtype=`).
//   full<T>(shape, x)             -> Value<T, size(shape)>
//   full_like(t, x[, type_c<U>])  -> Value of t's element type (or U), t a tensor or a value
#pragma once

#include "bbx/tensor/tensor.hpp"
#include "bbx/tensor/value.hpp"

namespace bbx {

template <class T, class Shape, class S>
BBX_HOST_DEVICE Value<T, int(decltype(size(std::declval<Shape>()))::value)> full(Shape const&,
                                                                                  S const& x) {
  Value<T, int(decltype(size(std::declval<Shape>()))::value)> r;
  const T t = ::bbx::to<T>(x);
  BBX_UNROLL
  for (auto& e : r.v) e = t;
  return r;
}

template <class T, int N, class VS, class U>
BBX_HOST_DEVICE Value<U, N, VS> zeros_like(Value<T, N, VS> const& a, type_c<U> u) {
  return full_like(a, 0, u);
}
template <class T, int N, class VS, class U>
BBX_HOST_DEVICE Value<U, N, VS> ones_like(Value<T, N, VS> const& a, type_c<U> u) {
  return full_like(a, 1, u);
}

// On a tensor: a register value of the tensor's (static) size.
template <class E, class L, class S, class... U>
BBX_HOST_DEVICE auto full_like(Tensor<E, L> const& t, S const& x, U... u) {
  using T = std::remove_cv_t<typename Tensor<E, L>::value_type>;
  return full_like(Value<T, int(decltype(size(t))::value)>{}, x, u...);
}
template <class E, class L, class... U>
BBX_HOST_DEVICE auto zeros_like(Tensor<E, L> const& t, U... u) {
  return full_like(t, 0, u...);
}
template <class E, class L, class... U>
BBX_HOST_DEVICE auto ones_like(Tensor<E, L> const& t, U... u) {
  return full_like(t, 1, u...);
}

}  // namespace bbx
