// bbx/layout/coalesce.hpp — coalesce(layout) and coalesce(layout, profile).
//
// coalesce merges adjacent flat modes (s0:d0, s1:d1) with d1 == s0*d0 and drops shape-1 modes,
// keeping the layout's function over its 1-D domain. Decisions are made on types: modes are only
// dropped or merged when that is statically known, so dynamic layouts keep their modes.
#pragma once

#include "layout.hpp"

namespace bbx {

namespace detail {
template <class FS, class FD>
BBX_HOST_DEVICE constexpr auto coalesce_flat(FS const& fs, FD const& fd) {
  // state: (done shapes, done strides, last shape, last stride); starts from 1:0 as in pycute.
  auto r = fold(zip(fs, fd), make_tuple(tuple<>{}, tuple<>{}, _1{}, _0{}),
                [](auto const& acc, auto const& sd) BBX_INLINE {
                  auto const& s = get<0>(sd);
                  auto const& d = get<1>(sd);
                  auto const& ls = get<2>(acc);
                  auto const& ld = get<3>(acc);
                  using S = std::remove_cvref_t<decltype(s)>;
                  using LS = std::remove_cvref_t<decltype(ls)>;
                  if constexpr (is_constant_v<1, S>) {
                    return acc;  // drop their shape-1
                  } else if constexpr (is_constant_v<1, LS>) {
                    return make_tuple(get<0>(acc), get<1>(acc), s, d);  // replace our shape-1
                  } else if constexpr (is_constant_v<true, decltype(ls * ld == d)>) {
                    return make_tuple(get<0>(acc), get<1>(acc), ls * s, ld);  // merge
                  } else {
                    return make_tuple(append(get<0>(acc), ls), append(get<1>(acc), ld), s, d);
                  }
                });
  if constexpr (tuple_size_v<decltype(get<0>(r))> == 0) {
    return make_layout(get<2>(r), get<3>(r));
  } else {
    return make_layout(append(get<0>(r), get<2>(r)), append(get<1>(r), get<3>(r)));
  }
}
}  // namespace detail

template <class S, class D>
BBX_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& l) {
  return detail::coalesce_flat(flatten_to_tuple(l.shape()), flatten_to_tuple(l.stride()));
}

namespace detail {
// The flat shape with a trailing static 1 read as 2: coalescing then keeps that mode's stride.
template <class FS>
BBX_HOST_DEVICE constexpr auto extend_trailing_unit(FS const& fs) {
  constexpr int R = int(tuple_size_v<FS>);
  if constexpr (R > 0 && is_constant_v<1, std::remove_cvref_t<decltype(get<R - 1>(fs))>>) {
    return append(take<0, R - 1>(fs), _2{});
  } else {
    return fs;
  }
}
}  // namespace detail

// coalesce_x: coalesce that keeps the layout's function outside its domain too (CuTe's
// detail::coalesce_x, which composition uses): (1):(s) stays a mode of stride s, so that
// composing it with a larger layout walks along s — as in the DSL, where a tile of 32 over the
// static size-1 column of make_identity_tensor((m, 1)) gives the columns 0..31, not 32 times 0.
// The last mode's shape may read 2 where the layout's was 1; composition never uses it.
template <class S, class D>
BBX_HOST_DEVICE constexpr auto coalesce_x(Layout<S, D> const& l) {
  return detail::coalesce_flat(detail::extend_trailing_unit(flatten_to_tuple(l.shape())),
                               flatten_to_tuple(l.stride()));
}

// coalesce(layout, profile): a tuple profile coalesces mode by mode (modes beyond the profile are
// kept); an integer profile coalesces the whole layout.
template <class S, class D, class P>
BBX_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& l, P const& profile) {
  if constexpr (is_tuple_v<P>) {
    constexpr int R = rank_v<S>;
    constexpr int RP = int(tuple_size_v<P>);
    static_assert(RP <= R, "coalesce: the profile has a larger rank than the layout");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_layout_from_tuple(make_tuple([&]() BBX_INLINE {
        if constexpr (int(Is) < RP) {
          return coalesce(layout<int(Is)>(l), get<Is>(profile));
        } else {
          return layout<int(Is)>(l);
        }
      }()...));
    }(std::make_index_sequence<std::size_t(R)>{});
  } else {
    return coalesce(l);
  }
}

}  // namespace bbx
