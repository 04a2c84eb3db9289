// bbx/layout/query.hpp — the DSL's layout queries and mode functions whose Python spelling
// differs from CuTe C++: shape(x) of any shaped value, cosize of a mode, crd2idx(coord, layout),
// group_modes on layouts, slice_(src, coord), filter_zeros, size_in_bytes(dtype, layout),
// is_static.
#pragma once

#include "bbx/layout/int_tuple.hpp"
#include "bbx/layout/layout.hpp"
#include "bbx/numeric/numeric_types.hpp"

namespace bbx {

// shape<I...>(x) of a value with a `.shape()` (a tensor); layouts and int tuples have theirs.
template <int... Is, class T>
  requires(!is_layout_v<T> && requires(T const& t) { t.shape(); })
BBX_HOST_DEVICE constexpr auto shape(T const& t) {
  return shape<Is...>(t.shape());
}

// cosize<I>(l): the cosize of mode I of a layout.
template <int I0, int... Is, class S, class D>
BBX_HOST_DEVICE constexpr auto cosize(Layout<S, D> const& l) {
  return cosize(layout<I0, Is...>(l));
}

// crd2idx(coord, layout) == layout(coord) (the DSL's argument order).
template <class Crd, class S, class D>
BBX_HOST_DEVICE constexpr auto crd2idx(Crd const& crd, Layout<S, D> const& l) {
  return crd2idx(crd, l.shape(), l.stride());
}

// group_modes<B, E>(layout): modes [B, E) become one mode; E == -1 means up to the rank.
template <int B, int E = -1, class S, class D>
BBX_HOST_DEVICE constexpr auto group_modes(Layout<S, D> const& l) {
  constexpr int R = int(tuple_size_v<decltype(wrap(l.shape()))>);
  constexpr int End = E < 0 ? R : E;
  return make_layout(group_modes<B, End>(wrap(l.shape())), group_modes<B, End>(wrap(l.stride())));
}

// slice_(src, coord): the DSL's spelling of slice(coord, src).
template <class T, class Crd>
BBX_HOST_DEVICE constexpr auto slice_(T const& src, Crd const& crd) {
  return slice(crd, src);
}

namespace detail {
template <class Sh, class St>
BBX_HOST_DEVICE constexpr auto filter_zero_shape(Sh const& sh, St const& st) {
  if constexpr (is_tuple<Sh>::value) {
    return transform(sh, st, [](auto const& a, auto const& b) BBX_INLINE { return filter_zero_shape(a, b); });
  } else if constexpr (is_static_v<St> && St::value == 0) {
    return _1{};
  } else {
    return sh;
  }
}
}  // namespace detail

// filter_zeros(l): every mode of stride 0 gets extent 1 (its elements alias one another).
template <class S, class D>
BBX_HOST_DEVICE constexpr auto filter_zeros(Layout<S, D> const& l) {
  return make_layout(detail::filter_zero_shape(l.shape(), l.stride()), l.stride());
}

// size_in_bytes(dtype, layout): bytes of cosize(layout) elements of the dtype.
template <class T, class S, class D>
BBX_HOST_DEVICE constexpr auto size_in_bytes(type_c<T>, Layout<S, D> const& l) {
  auto c = cosize(l);
  if constexpr (is_static_v<decltype(c)>) {
    return Int<(decltype(c)::value * sizeof_bits_v<T> + 7) / 8>{};
  } else {
    return (int(c) * sizeof_bits_v<T> + 7) / 8;
  }
}

// to<T>(Int<N>{}): a static integer as a run-time number (`cutlass.Float32(n)` of a static n).
template <class T, auto V>
  requires(is_numeric_v<T>)
BBX_HOST_DEVICE constexpr T to(C<V>) {
  return to<T>(V);
}

// is_static_c(x): whether x is a compile-time value (all leaves static), as a bool constant.
template <class T>
BBX_HOST_DEVICE constexpr auto is_static_c(T const&) {
  return std::bool_constant<is_static_v<T>>{};
}

}  // namespace bbx
