// bbx/layout/product.hpp — logical_product, zipped_product, tiled_product, blocked_product,
// raked_product.
//
// logical_product(A, B) == (A, composition(complement(A, size(A) * cosize(B)), B)): B repeats A.
// blocked_product / raked_product interleave the modes of A and B: ((A0,B0),(A1,B1),...) resp.
// ((B0,A0),(B1,A1),...), zipped as CuTe (not coalesced: the DSL user sees that shape).
#pragma once

#include "divide.hpp"

namespace bbx {

template <class A, class B>
BBX_HOST_DEVICE constexpr auto logical_product(A const& a, B const& b) {
  if constexpr (is_composed_layout_v<A>) {
    return make_composed_layout(a.layout_a(), a.offset(), logical_product(a.layout_b(), b));
  } else if constexpr (is_underscore_v<B>) {
    return a;
  } else if constexpr (is_tuple_v<B>) {
    constexpr int R = rank_v<typename A::shape_type>;
    constexpr int RB = int(tuple_size_v<B>);
    static_assert(RB <= R, "logical_product: the tiler has a larger rank than the layout");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_layout_from_tuple(make_tuple([&]() BBX_INLINE {
        if constexpr (int(Is) < RB) {
          return logical_product(layout<int(Is)>(a), get<Is>(b));
        } else {
          return layout<int(Is)>(a);
        }
      }()...));
    }(std::make_index_sequence<std::size_t(R)>{});
  } else if constexpr (is_layout_v<B>) {
    return make_layout(a, composition(complement(a, size(a) * cosize(b)), b));
  } else {
    static_assert(is_integral_v<B>, "logical_product: the tiler must be a layout, an integer, _ or a tuple");
    return logical_product(a, make_layout(b));
  }
}

template <class A, class B>
BBX_HOST_DEVICE constexpr auto zipped_product(A const& a, B const& b) {
  if constexpr (is_composed_layout_v<A>) {
    return make_composed_layout(a.layout_a(), a.offset(), zipped_product(a.layout_b(), b));
  } else {
    return detail::hier_unzip([](auto const& x, auto const& y) BBX_INLINE { return logical_product(x, y); }, a, b);
  }
}
template <class A, class B>
BBX_HOST_DEVICE constexpr auto tiled_product(A const& a, B const& b) {
  if constexpr (is_composed_layout_v<A>) {
    return make_composed_layout(a.layout_a(), a.offset(), tiled_product(a.layout_b(), b));
  } else {
    auto z = zipped_product(a, b);
    return make_layout_from_tuple(prepend(detail::modes_of(layout<1>(z)), layout<0>(z)));
  }
}

namespace detail {
// Pad a layout to rank N with 1:0 modes (a non-tuple shape becomes a rank-1 tuple first).
template <int N, class L>
BBX_HOST_DEVICE constexpr auto append_layout(L const& l) {
  return make_layout(append<N>(wrap(l.shape()), _1{}), append<N>(wrap(l.stride()), _0{}));
}
template <bool Raked, class A, class B>
BBX_HOST_DEVICE constexpr auto interleaved_product(A const& a, B const& b) {
  constexpr int R = max(rank_v<typename A::shape_type>, rank_v<typename B::shape_type>);
  auto r = logical_product(append_layout<R>(a), append_layout<R>(b));
  auto l0 = layout<0>(r);
  auto l1 = layout<1>(r);
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
    // CuTe zips the two halves mode by mode and keeps that shape (no coalescing)
    return make_layout_from_tuple(make_tuple([&]() BBX_INLINE {
      if constexpr (Raked) {
        return make_layout(layout<int(Is)>(l1), layout<int(Is)>(l0));
      } else {
        return make_layout(layout<int(Is)>(l0), layout<int(Is)>(l1));
      }
    }()...));
  }(std::make_index_sequence<std::size_t(R)>{});
}
}  // namespace detail

template <class A, class B>
BBX_HOST_DEVICE constexpr auto blocked_product(A const& a, B const& b) {
  if constexpr (is_composed_layout_v<A>) {
    return make_composed_layout(a.layout_a(), a.offset(), blocked_product(a.layout_b(), b));
  } else {
    static_assert(is_layout_v<A> && is_layout_v<B>, "blocked_product: both operands must be layouts");
    return detail::interleaved_product<false>(a, b);
  }
}
template <class A, class B>
BBX_HOST_DEVICE constexpr auto raked_product(A const& a, B const& b) {
  if constexpr (is_composed_layout_v<A>) {
    return make_composed_layout(a.layout_a(), a.offset(), raked_product(a.layout_b(), b));
  } else {
    static_assert(is_layout_v<A> && is_layout_v<B>, "raked_product: both operands must be layouts");
    return detail::interleaved_product<true>(a, b);
  }
}

}  // namespace bbx
