// bbx/layout/mode_ops.hpp — the DSL's mode-level helpers on int tuples and layouts:
//
//   append(layout, layout[, <N>]) / prepend(layout, layout)   layouts gain modes (shape and
//                           stride together; `append<N>` pads up to rank N)
//   append_ones<N>(layout) / prepend_ones<N>(layout)   pad with 1:0 modes up to rank N (N == 0:
//                           one mode more)
//   filter(layout)          coalesce(filter_zeros(layout)): no stride-0 or extent-1 modes
//   front(x)                the first leaf (of an int tuple, or the first leaf mode of a layout)
//   repeat<N>(x)            x for N == 1, else a tuple of N copies; repeat_as_tuple<N>(x): always
//                           a tuple
//   has_underscore(x)       whether a coordinate holds `_` (a static bool)
//   select<I...>(layout)    the layout of modes I... in that order (cute.select(layout, mode=))
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/coalesce.hpp"
#include "bbx/layout/int_tuple.hpp"
#include "bbx/layout/layout.hpp"
#include "bbx/layout/query.hpp"

namespace bbx {

template <int... Is, class S, class D>
BBX_HOST_DEVICE constexpr auto select(Layout<S, D> const& layout) {
  return make_layout(select<Is...>(layout.shape()), select<Is...>(layout.stride()));
}

template <class S0, class D0, class S1, class D1>
BBX_HOST_DEVICE constexpr auto append(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return make_layout(append(a.shape(), b.shape()), append(a.stride(), b.stride()));
}
template <int N, class S0, class D0, class S1, class D1>
BBX_HOST_DEVICE constexpr auto append(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return make_layout(append<N>(a.shape(), b.shape()), append<N>(a.stride(), b.stride()));
}
template <class S0, class D0, class S1, class D1>
BBX_HOST_DEVICE constexpr auto prepend(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return make_layout(prepend(a.shape(), b.shape()), prepend(a.stride(), b.stride()));
}
template <int N = 0, class S, class D>
BBX_HOST_DEVICE constexpr auto append_ones(Layout<S, D> const& l) {
  constexpr int R = int(decltype(rank(l))::value);
  return append<(N == 0 ? R + 1 : N)>(l, make_layout(_1{}, _0{}));
}
template <int N = 0, class S, class D>
BBX_HOST_DEVICE constexpr auto prepend_ones(Layout<S, D> const& l) {
  constexpr int R = int(decltype(rank(l))::value);
  constexpr int K = (N == 0 ? R + 1 : N) - R;
  static_assert(K >= 0, "prepend_ones: up_to_rank is smaller than the rank");
  if constexpr (K == 0) {
    return l;
  } else {
    return prepend_ones<R + K>(prepend(l, make_layout(_1{}, _0{})));
  }
}

template <class S, class D>
BBX_HOST_DEVICE constexpr auto filter(Layout<S, D> const& l) {
  return coalesce(filter_zeros(l));
}

template <class X>
BBX_HOST_DEVICE constexpr auto front(X const& x) {
  if constexpr (is_layout_v<X>) {
    if constexpr (is_tuple_v<std::remove_cvref_t<decltype(x.shape())>>) return front(get<0>(x));
    else return x;
  } else if constexpr (is_tuple_v<X>) {
    return front(get<0>(x));
  } else {
    return x;
  }
}

template <int N, class X>
BBX_HOST_DEVICE constexpr auto repeat_as_tuple(X const& x) {
  static_assert(N >= 1, "repeat_as_tuple: n must be >= 1");
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
    return make_tuple((void(Is), x)...);
  }(std::make_index_sequence<std::size_t(N)>{});
}
template <int N, class X>
BBX_HOST_DEVICE constexpr auto repeat(X const& x) {
  static_assert(N >= 1, "repeat: n must be >= 1");
  if constexpr (N == 1) return x;
  else return repeat_as_tuple<N>(x);
}

template <class X>
BBX_HOST_DEVICE constexpr auto has_underscore(X const&) {
  return C<has_underscore_v<X>>{};
}

}  // namespace bbx
