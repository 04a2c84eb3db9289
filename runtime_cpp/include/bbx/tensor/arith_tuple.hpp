// bbx/tensor/arith_tuple.hpp — coordinate-valued strides and the counting iterator behind
// `make_identity_tensor` (CuTe's ScaledBasis / ArithmeticTuple, reimplemented).
//
// `E<I>` is the unit basis element of coordinate mode I; `k * E<I>` is `ScaledBasis<K, I>`;
// sums of those are `arith_tuple<...>` (one integer per coordinate mode, static where possible).
// An identity layout has strides E<0>, E<1>, ..., so the generic `crd2idx` of the layout library
// (inner product with `*` and `+`) returns a coordinate instead of a linear index. Because the
// value is a real coordinate, tiling a ragged identity tensor yields coordinates past the shape
// (never wrapped), which is what `elem_less(coord, shape)` predication needs.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "bbx/config.hpp"
#include "bbx/layout/layout.hpp"

namespace bbx {

template <class V, int I>
struct ScaledBasis {
  V value;
  BBX_HOST_DEVICE constexpr ScaledBasis(V const& v = {}) : value(v) {}
};
// A static scale (`E<I>`, `_64 * E<0>`): an empty type, so that layouts with such strides are
// static (is_static_v) and the layout algebra works on their types, as for integer strides.
template <class V, int I>
  requires(std::is_empty_v<V>)
struct ScaledBasis<V, I> {
  static constexpr V value{};
  BBX_HOST_DEVICE constexpr ScaledBasis(V const& = {}) {}
};
template <int I>
using E = ScaledBasis<_1, I>;

// One integer per coordinate mode; the coordinate of an identity tensor element.
template <class... Ts>
struct arith_tuple {
  tuple<Ts...> t;
};

template <class T> struct is_scaled_basis : std::false_type {};
template <class V, int I> struct is_scaled_basis<ScaledBasis<V, I>> : std::true_type {};
template <class T> struct is_arith_tuple : std::false_type {};
template <class... Ts> struct is_arith_tuple<arith_tuple<Ts...>> : std::true_type {};
template <class T>
inline constexpr bool is_coord_offset_v = is_scaled_basis<std::remove_cvref_t<T>>::value ||
                                          is_arith_tuple<std::remove_cvref_t<T>>::value;

namespace detail {
// Expand an offset to a bbx::tuple of exactly R integers (padding with _0).
template <std::size_t R, class V, int I>
BBX_HOST_DEVICE constexpr auto as_coord_tuple(ScaledBasis<V, I> const& s) {
  static_assert(I < int(R), "coordinate offset has more modes than the identity tensor");
  return [&]<std::size_t... Js>(std::index_sequence<Js...>) BBX_INLINE {
    return make_tuple([&]<std::size_t J>(std::integral_constant<std::size_t, J>) BBX_INLINE {
      if constexpr (J == std::size_t(I)) return s.value;
      else return _0{};
    }(std::integral_constant<std::size_t, Js>{})...);
  }(std::make_index_sequence<R>{});
}
template <std::size_t R, class... Ts>
BBX_HOST_DEVICE constexpr auto as_coord_tuple(arith_tuple<Ts...> const& a) {
  static_assert(sizeof...(Ts) <= R, "coordinate offset has more modes than the identity tensor");
  return [&]<std::size_t... Js>(std::index_sequence<Js...>) BBX_INLINE {
    return make_tuple([&]<std::size_t J>(std::integral_constant<std::size_t, J>) BBX_INLINE {
      if constexpr (J < sizeof...(Ts)) return get<J>(a.t);
      else return _0{};
    }(std::integral_constant<std::size_t, Js>{})...);
  }(std::make_index_sequence<R>{});
}
template <std::size_t R, class T>
  requires(is_integral_v<T>)
BBX_HOST_DEVICE constexpr auto as_coord_tuple(T const&) {
  // only a static zero offset can be added to a coordinate
  static_assert(is_constant_v<0, T>, "a linear offset cannot be added to a coordinate");
  return [&]<std::size_t... Js>(std::index_sequence<Js...>) BBX_INLINE {
    return make_tuple((void(Js), _0{})...);
  }(std::make_index_sequence<R>{});
}
template <std::size_t R, class... Ts>
BBX_HOST_DEVICE constexpr auto as_coord_tuple(tuple<Ts...> const& t) {
  static_assert(sizeof...(Ts) == R);
  return t;
}
template <class T> struct offset_rank : std::integral_constant<std::size_t, 0> {};
template <class V, int I> struct offset_rank<ScaledBasis<V, I>> : std::integral_constant<std::size_t, I + 1> {};
template <class... Ts> struct offset_rank<arith_tuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};

template <class... Ts>
BBX_HOST_DEVICE constexpr auto make_arith_tuple(tuple<Ts...> const& t) {
  return arith_tuple<Ts...>{t};
}
}  // namespace detail

// ---- arithmetic -------------------------------------------------------------------------------
template <class A, class V, int I>
  requires(is_integral_v<A>)
BBX_HOST_DEVICE constexpr auto operator*(A const& a, ScaledBasis<V, I> const& s) {
  auto v = a * s.value;
  return ScaledBasis<decltype(v), I>(v);
}
template <class A, class V, int I>
  requires(is_integral_v<A>)
BBX_HOST_DEVICE constexpr auto operator*(ScaledBasis<V, I> const& s, A const& a) {
  auto v = s.value * a;
  return ScaledBasis<decltype(v), I>(v);
}
template <class A, class B>
  requires((is_coord_offset_v<A> || is_coord_offset_v<B>) &&
           (is_coord_offset_v<A> || is_constant_v<0, A>) && (is_coord_offset_v<B> || is_constant_v<0, B>))
BBX_HOST_DEVICE constexpr auto operator+(A const& a, B const& b) {
  if constexpr (!is_coord_offset_v<A>) {
    return b;
  } else if constexpr (!is_coord_offset_v<B>) {
    return a;
  } else {
    constexpr std::size_t Ra = detail::offset_rank<std::remove_cvref_t<A>>::value;
    constexpr std::size_t Rb = detail::offset_rank<std::remove_cvref_t<B>>::value;
    constexpr std::size_t R = Ra < Rb ? Rb : Ra;
    return detail::make_arith_tuple(transform(detail::as_coord_tuple<R>(a), detail::as_coord_tuple<R>(b),
                                              [](auto const& x, auto const& y) BBX_INLINE { return x + y; }));
  }
}
template <class V0, int I0, class V1, int I1>
BBX_HOST_DEVICE constexpr auto operator==(ScaledBasis<V0, I0> const& a, ScaledBasis<V1, I1> const& b) {
  if constexpr (I0 != I1) return false_type{};
  else return a.value == b.value;
}
template <class V0, int I0, class A>
  requires(is_integral_v<A>)
BBX_HOST_DEVICE constexpr auto operator==(ScaledBasis<V0, I0> const& a, A const& b) {
  return a.value == _0{} && b == _0{};
}
template <class V0, int I0, class A>
  requires(is_integral_v<A>)
BBX_HOST_DEVICE constexpr auto operator==(A const& b, ScaledBasis<V0, I0> const& a) {
  return a == b;
}

// ---- the counting iterator ------------------------------------------------------------------
// Holds a coordinate (a bbx::tuple of R integers); dereferencing yields that coordinate,
// adding a coordinate offset moves it.
template <class Coord>
struct counting_iter {
  using value_type = Coord;
  using element_type = Coord;
  using reference = Coord;
  Coord coord;
  BBX_HOST_DEVICE constexpr Coord operator*() const { return coord; }
  template <class Off>
  BBX_HOST_DEVICE constexpr Coord operator[](Off const& off) const {
    return *(*this + off);
  }
  template <class Off>
  BBX_HOST_DEVICE constexpr auto operator+(Off const& off) const {
    constexpr std::size_t R = tuple_size_v<Coord>;
    auto c = transform(coord, detail::as_coord_tuple<R>(off),
                       [](auto const& x, auto const& y) BBX_INLINE { return x + y; });
    return counting_iter<decltype(c)>{c};
  }
};
template <class T> struct is_counting_iter : std::false_type {};
template <class C> struct is_counting_iter<counting_iter<C>> : std::true_type {};

// Identity layout: the shape with strides E<0>, E<1>, ... (a nested mode is linearised
// column-major inside its coordinate component).
template <class Shape>
BBX_HOST_DEVICE constexpr auto make_identity_layout(Shape const& shape) {
  if constexpr (!is_tuple_v<Shape>) {
    return make_layout(shape, E<0>{});
  } else {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_layout(shape, make_stride([&]<std::size_t I>(std::integral_constant<std::size_t, I>) BBX_INLINE {
        auto const& s = get<I>(shape);
        if constexpr (is_tuple_v<std::remove_cvref_t<decltype(s)>>) {
          return transform(compact_col_major(s), [](auto const& d) BBX_INLINE { return d * E<int(I)>{}; });
        } else {
          return E<int(I)>{};
        }
      }(std::integral_constant<std::size_t, Is>{})...));
    }(std::make_index_sequence<tuple_size_v<Shape>>{});
  }
}

}  // namespace bbx
