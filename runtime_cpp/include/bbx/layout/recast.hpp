// bbx/layout/recast.hpp — layouts seen through another element width, and the DSL's small
// int-tuple / layout helpers that go with them:
//
//   upcast<N>(layout)       N old elements become one new one: strides / N, shapes shrink where
//                           the stride divides (CuTe's upcast)
//   downcast<N>(layout)     one old element becomes N new ones: the unit-stride mode grows by N,
//                           other strides * N (CuTe's downcast)
//   recast_layout(new_bits, old_bits, layout)   the layout of the same bytes in elements of
//                           new_bits instead of old_bits (static integers; CuTe's recast_layout)
//   round_up(a, b)          a rounded up to multiples of b, mode by mode (b padded with 1s)
//   repeat_like(x, target)  target's profile with every leaf x
//   dice(src, dicer)        the modes of src whose dicer entry is an integer (not `_`); src an
//                           int tuple or a layout (the DSL's argument order)
//   make_layout_image_mask<Mode>(layout, coord)   the 16-bit mask (an int16_t, as the DSL) of the image of `layout`
//                           along Mode, the other modes fixed at coord (multicast masks)
#pragma once

#include <cstdint>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/int_tuple.hpp"
#include "bbx/layout/layout.hpp"

namespace bbx {

namespace detail {
// Layouts of the modes of (shape, stride) after F, put back together as one layout.
template <class S, class D, class F>
BBX_HOST_DEVICE constexpr auto transform_layout_modes(S const& s, D const& d, F f) {
  const auto modes = transform(s, d, f);
  return make_layout(transform(modes, [](auto const& m) BBX_INLINE { return m.shape(); }),
                     transform(modes, [](auto const& m) BBX_INLINE { return m.stride(); }));
}
}  // namespace detail

template <int N, class S, class D>
BBX_HOST_DEVICE constexpr auto upcast(S const& shape, D const& stride) {
  if constexpr (is_tuple_v<S>) {
    return detail::transform_layout_modes(
        shape, stride, [](auto const& s, auto const& d) BBX_INLINE { return upcast<N>(s, d); });
  } else if constexpr (is_constant_v<0, D>) {
    return make_layout(shape, stride);
  } else if constexpr (is_C_v<D>) {
    // CuTe: shape / ceil(N / |stride|) rounded up, stride / N rounded away from zero
    static_assert(D::value % N == 0 || N % D::value == 0,
                  "upcast: divisibility condition violated (the stride and N do not divide one another)");
    return make_layout(ceil_div(shape, ceil_div(Int<N>{}, abs(stride))),
                       signum(stride) * ceil_div(abs(stride), Int<N>{}));
  } else {
    // a run-time stride is taken to be a multiple of N (CuTe's safe_div)
    BBX_ASSERT(stride % N == 0, "upcast: a run-time stride is not a multiple of N");
    return make_layout(shape, stride / Int<N>{});
  }
}
template <int N, class S, class D>
BBX_HOST_DEVICE constexpr auto upcast(Layout<S, D> const& l) {
  return upcast<N>(l.shape(), l.stride());
}

template <int N, class S, class D>
BBX_HOST_DEVICE constexpr auto downcast(S const& shape, D const& stride) {
  if constexpr (is_tuple_v<S>) {
    return detail::transform_layout_modes(
        shape, stride, [](auto const& s, auto const& d) BBX_INLINE { return downcast<N>(s, d); });
  } else if constexpr (is_constant_v<1, D> || is_constant_v<-1, D>) {
    return make_layout(shape * Int<N>{}, stride);
  } else {
    return make_layout(shape, stride * Int<N>{});
  }
}
template <int N, class S, class D>
BBX_HOST_DEVICE constexpr auto downcast(Layout<S, D> const& l) {
  return downcast<N>(l.shape(), l.stride());
}

namespace detail {
BBX_HOST_DEVICE constexpr int gcd_int(int a, int b) { return b == 0 ? a : gcd_int(b, a % b); }
}  // namespace detail

// The layout of the same bytes in elements of NewBits instead of OldBits.
template <int NewBits, int OldBits, class L>
BBX_HOST_DEVICE constexpr auto recast_layout(L const& l) {
  static_assert(NewBits > 0 && OldBits > 0, "recast_layout: element widths must be positive");
  constexpr int g = detail::gcd_int(NewBits, OldBits);
  constexpr int num = NewBits / g, den = OldBits / g;  // NewBits / OldBits in lowest terms
  if constexpr (num == 1 && den == 1) return l;
  else if constexpr (num == 1) return downcast<den>(l);
  else if constexpr (den == 1) return upcast<num>(l);
  else return downcast<den>(upcast<num>(l));
}
// recast_layout(new_bits, old_bits, layout) with static integers (`_16{}`, `Int<sizeof_bits_v<T>>`).
template <class NewBits, class OldBits, class L>
  requires(is_C_v<NewBits> && is_C_v<OldBits>)
BBX_HOST_DEVICE constexpr auto recast_layout(NewBits, OldBits, L const& l) {
  return recast_layout<int(NewBits::value), int(OldBits::value)>(l);
}

// round_up(a, b): ((a + b - 1) / b) * b leaf by leaf; a tuple b shorter than a is padded with 1.
template <class A, class B>
BBX_HOST_DEVICE constexpr auto round_up(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B>, "round_up: a tuple `a` needs a tuple `b`");
    static_assert(tuple_size_v<A> >= tuple_size_v<B>, "round_up: rank(a) < rank(b)");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_tuple([&]() BBX_INLINE {
        if constexpr (Is < tuple_size_v<B>) return round_up(get<Is>(a), get<Is>(b));
        else return get<Is>(a);
      }()...);
    }(std::make_index_sequence<tuple_size_v<A>>{});
  } else {
    static_assert(!is_tuple_v<B>, "round_up: `b` must be an integer when `a` is");
    return ceil_div(a, b) * b;
  }
}

// repeat_like(x, target): target's nesting with x at every leaf.
template <class X, class T>
BBX_HOST_DEVICE constexpr auto repeat_like(X const& x, T const& target) {
  if constexpr (is_tuple_v<T>) {
    return transform(target, [&](auto const& t) BBX_INLINE { return repeat_like(x, t); });
  } else {
    return x;
  }
}

// dice(src, dicer): keep the modes of src paired with an integer in dicer; drop those paired
// with `_` (the complement of slicing).
namespace detail {
template <class T, class Crd>
BBX_HOST_DEVICE constexpr auto lift_dice(T const& t, Crd const& c) {
  if constexpr (is_tuple_v<Crd>) {
    static_assert(is_tuple_v<T> && tuple_size_v<Crd> == tuple_size_v<T>,
                  "dice: dicer and input ranks differ");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return tuple_cat(tuple<>{}, lift_dice(get<Is>(t), get<Is>(c))...);
    }(std::make_index_sequence<tuple_size_v<Crd>>{});
  } else if constexpr (is_underscore_v<Crd>) {
    return tuple<>{};
  } else {
    return make_tuple(t);
  }
}
}  // namespace detail
template <class T, class Crd>
BBX_HOST_DEVICE constexpr auto dice(T const& src, Crd const& dicer) {
  if constexpr (is_layout_v<T>) {
    return make_layout(dice(src.shape(), dicer), dice(src.stride(), dicer));
  } else if constexpr (is_tuple_v<Crd>) {
    return detail::lift_dice(src, dicer);
  } else if constexpr (is_underscore_v<Crd>) {
    return tuple<>{};
  } else {
    return src;
  }
}

// make_layout_image_mask<Mode>(layout, coord): bit layout(c') for every coordinate c' equal to
// coord outside Mode (coord's entry at Mode is ignored); the layout's image must fit in 16 bits.
namespace detail {
template <int Mode, class Crd>
BBX_HOST_DEVICE constexpr auto with_underscore_at(Crd const& c) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
    return make_tuple([&]() BBX_INLINE {
      if constexpr (int(Is) == Mode) return Underscore{};
      else return get<Is>(c);
    }()...);
  }(std::make_index_sequence<tuple_size_v<Crd>>{});
}
}  // namespace detail
template <int Mode, class L, class Crd>
BBX_HOST_DEVICE constexpr std::int16_t make_layout_image_mask(L const& l, Crd const& coord) {
  static_assert(is_tuple_v<Crd> && tuple_size_v<Crd> == decltype(rank(l))::value,
                "make_layout_image_mask: the coordinate must have the layout's rank");
  static_assert(Mode >= 0 && Mode < int(tuple_size_v<Crd>),
                "make_layout_image_mask: mode must be in [0, rank(layout))");
  if constexpr (is_static_v<L>) {
    static_assert(decltype(cosize(l))::value <= 16, "make_layout_image_mask: the mask does not fit 16 bits");
  }
  const auto so = slice_and_offset(detail::with_underscore_at<Mode>(coord), l);
  const auto sliced = get<0>(so);
  unsigned mask = 0;
  for (int i = 0; i < int(size(sliced)); ++i) mask |= 1u << int(sliced(i));
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(mask << int(get<1>(so))));
}
template <class M, class L, class Crd>
  requires(is_C_v<M>)
BBX_HOST_DEVICE constexpr std::int16_t make_layout_image_mask(L const& l, Crd const& coord, M) {
  return make_layout_image_mask<int(M::value)>(l, coord);
}

}  // namespace bbx
