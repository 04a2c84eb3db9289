// bbx/layout/alignment.hpp — max_alignment(layout): the DSL's `Layout.max_alignment`.
//
// The largest N such that every run of N consecutive indices of the layout's codomain starting
// at a multiple of N is produced by N consecutive coordinates — i.e. the widest vector the
// layout's *static* facts allow (what upcast<N> would accept). As in CuTe, only static shapes and
// strides count: a dynamic extent is taken as 1 and a dynamic stride as 0 (both then ignored),
// so a layout whose contiguous mode is dynamic has alignment 1.
//   (8,4):(1,8) -> 32    (8,4):(1,16) -> 8    (6,4):(1,8) -> 2    (?,4):(1,?) -> 1
#pragma once

#include "layout.hpp"

namespace bbx {

namespace detail {
template <class T>
BBX_HOST_DEVICE constexpr long long static_leaf_or(long long dynamic_value) {
  if constexpr (is_C_v<T>) return static_cast<long long>(T::value);
  else return dynamic_value;
}

template <class... S, class... D>
BBX_HOST_DEVICE constexpr long long max_alignment_of(tuple<S...> const&, tuple<D...> const&) {
  constexpr int n = int(sizeof...(S));
  long long shapes[n + 1] = {static_leaf_or<S>(1)...};
  long long strides[n + 1] = {static_leaf_or<D>(0)...};
  bool used[n + 1] = {};
  // The contiguous run from stride 1: a mode of stride `run` extends it by its extent.
  long long run = 1;
  for (bool grew = true; grew;) {
    grew = false;
    for (int i = 0; i < n; ++i) {
      if (!used[i] && shapes[i] > 1 && strides[i] == run) {
        used[i] = true;
        run *= shapes[i];
        grew = true;
      }
    }
  }
  // Every other (non-trivial) mode must step by a multiple of the vector.
  long long align = run;
  for (int i = 0; i < n; ++i) {
    if (!used[i] && shapes[i] > 1 && strides[i] != 0) {
      align = gcd_ll(align, strides[i]);
    }
  }
  return align;
}
}  // namespace detail

template <class S, class D>
BBX_HOST_DEVICE constexpr auto max_alignment(Layout<S, D> const& l) {
  using FS = decltype(flatten_to_tuple(l.shape()));
  using FD = decltype(flatten_to_tuple(l.stride()));
  return Int<int(detail::max_alignment_of(FS{}, FD{}))>{};
}

}  // namespace bbx
