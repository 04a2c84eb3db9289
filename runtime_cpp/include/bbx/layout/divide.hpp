// bbx/layout/divide.hpp — logical_divide, zipped_divide, tiled_divide, flat_divide.
//
// logical_divide(A, B) == composition(A, make_layout(B, complement(B, size(A)))): mode 0 is the
// tile, mode 1 the tile's repetition. A tiler (tuple) divides mode by mode. zipped_divide gathers
// ((tiles...), (rests...)); tiled_divide gives (tile, rest0, rest1, ...); flat_divide flattens both.
#pragma once

#include "composition.hpp"
#include "complement.hpp"

namespace bbx {

template <class A, class B>
BBX_HOST_DEVICE constexpr auto logical_divide(A const& a, B const& b) {
  if constexpr (is_composed_layout_v<A>) {
    return make_composed_layout(a.layout_a(), a.offset(), logical_divide(a.layout_b(), b));
  } else if constexpr (is_underscore_v<B>) {
    return a;
  } else if constexpr (is_tuple_v<B>) {
    constexpr int R = rank_v<typename A::shape_type>;
    constexpr int RB = int(tuple_size_v<B>);
    static_assert(RB <= R, "logical_divide: the tiler has a larger rank than the layout");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_layout_from_tuple(make_tuple([&]() BBX_INLINE {
        if constexpr (int(Is) < RB) {
          return logical_divide(layout<int(Is)>(a), get<Is>(b));
        } else {
          return layout<int(Is)>(a);
        }
      }()...));
    }(std::make_index_sequence<std::size_t(R)>{});
  } else if constexpr (is_layout_v<B>) {
    return composition(a, make_layout(b, complement(b, size(a))));
  } else {
    static_assert(is_integral_v<B>, "logical_divide: the tiler must be a layout, an integer, _ or a tuple");
    return logical_divide(a, make_layout(b));
  }
}

namespace detail {
// pycute's hier_unzip: apply a rank-2 splitter mode by mode and gather ((firsts...), (seconds..., rest...)).
template <class Splitter, class A, class B>
BBX_HOST_DEVICE constexpr auto hier_unzip(Splitter const& split, A const& a, B const& b) {
  if constexpr (is_tuple_v<B>) {
    constexpr int R = rank_v<typename A::shape_type>;
    constexpr int RB = int(tuple_size_v<B>);
    static_assert(RB <= R, "zipped/tiled divide or product: the tiler has a larger rank than the layout");
    auto parts = [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_tuple(hier_unzip(split, layout<int(Is)>(a), get<Is>(b))...);
    }(std::make_index_sequence<std::size_t(RB)>{});
    auto firsts = [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_layout_from_tuple(make_tuple(layout<0>(get<Is>(parts))...));
    }(std::make_index_sequence<std::size_t(RB)>{});
    auto seconds = [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) BBX_INLINE {
      return make_layout_from_tuple(make_tuple(layout<1>(get<Is>(parts))..., layout<RB + int(Js)>(a)...));
    }(std::make_index_sequence<std::size_t(RB)>{}, std::make_index_sequence<std::size_t(R - RB)>{});
    return make_layout(firsts, seconds);
  } else {
    return split(a, b);
  }
}
template <class L>
BBX_HOST_DEVICE constexpr auto modes_of(L const& l) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
    return make_tuple(layout<int(Is)>(l)...);
  }(std::make_index_sequence<std::size_t(rank_v<typename L::shape_type>)>{});
}
}  // namespace detail

template <class A, class B>
BBX_HOST_DEVICE constexpr auto zipped_divide(A const& a, B const& b) {
  if constexpr (is_composed_layout_v<A>) {
    return make_composed_layout(a.layout_a(), a.offset(), zipped_divide(a.layout_b(), b));
  } else {
    return detail::hier_unzip([](auto const& x, auto const& y) BBX_INLINE { return logical_divide(x, y); }, a, b);
  }
}
template <class A, class B>
BBX_HOST_DEVICE constexpr auto tiled_divide(A const& a, B const& b) {
  if constexpr (is_composed_layout_v<A>) {
    return make_composed_layout(a.layout_a(), a.offset(), tiled_divide(a.layout_b(), b));
  } else {
    auto z = zipped_divide(a, b);
    return make_layout_from_tuple(prepend(detail::modes_of(layout<1>(z)), layout<0>(z)));
  }
}
template <class A, class B>
BBX_HOST_DEVICE constexpr auto flat_divide(A const& a, B const& b) {
  if constexpr (is_composed_layout_v<A>) {
    return make_composed_layout(a.layout_a(), a.offset(), flat_divide(a.layout_b(), b));
  } else {
    auto z = zipped_divide(a, b);
    return make_layout_from_tuple(tuple_cat(detail::modes_of(layout<0>(z)), detail::modes_of(layout<1>(z))));
  }
}

}  // namespace bbx
