// bbx/layout/int_tuple.hpp — hierarchical integer tuples (shapes, strides, coordinates, tilers).
//
// An "int tuple" is an integer (static C<v> or run-time int) or a bbx::tuple of int tuples.
// Every function keeps static inputs static: the result of an operation on static int tuples is
// an empty type whose value is in the type.
#pragma once

#include "tuple.hpp"

namespace bbx {

// ---- names ----------------------------------------------------------------------------------
template <class... Ts>
BBX_HOST_DEVICE constexpr auto make_shape(Ts const&... ts) {
  return make_tuple(ts...);
}
template <class... Ts>
BBX_HOST_DEVICE constexpr auto make_stride(Ts const&... ts) {
  return make_tuple(ts...);
}
template <class... Ts>
BBX_HOST_DEVICE constexpr auto make_coord(Ts const&... ts) {
  return make_tuple(ts...);
}
template <class... Ts>
BBX_HOST_DEVICE constexpr auto make_tile(Ts const&... ts) {
  return make_tuple(ts...);
}
template <class... Ts>
using Shape = tuple<Ts...>;
template <class... Ts>
using Stride = tuple<Ts...>;
template <class... Ts>
using Coord = tuple<Ts...>;
template <class... Ts>
using Tile = tuple<Ts...>;
template <class... Ts>
using Step = tuple<Ts...>;

// `_` in a coordinate keeps that mode when slicing (a __device__ constant in nvcc's device pass:
// BBX_CONSTANT_OBJECT, config.hpp).
struct Underscore {};
BBX_CONSTANT_OBJECT Underscore _{};
template <class T>
inline constexpr bool is_underscore_v = std::is_same_v<std::remove_cvref_t<T>, Underscore>;

namespace detail {
template <class T>
struct has_underscore_impl : std::false_type {};
template <>
struct has_underscore_impl<Underscore> : std::true_type {};
template <class... Ts>
struct has_underscore_impl<tuple<Ts...>> : std::bool_constant<(has_underscore_impl<Ts>::value || ...)> {};
}  // namespace detail
template <class T>
inline constexpr bool has_underscore_v = detail::has_underscore_impl<std::remove_cvref_t<T>>::value;

// ---- generic algorithms ---------------------------------------------------------------------
// transform(t, f): f applied to every top-level element (f(t) for a non-tuple).
template <class T, class F>
BBX_HOST_DEVICE constexpr auto transform(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_tuple(f(get<Is>(t))...);
    }(std::make_index_sequence<tuple_size_v<T>>{});
  } else {
    return f(t);
  }
}
template <class T0, class T1, class F>
BBX_HOST_DEVICE constexpr auto transform(T0 const& t0, T1 const& t1, F&& f) {
  if constexpr (is_tuple_v<T0>) {
    static_assert(tuple_size_v<T0> == tuple_size_v<T1>, "transform: mismatched ranks");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_tuple(f(get<Is>(t0), get<Is>(t1))...);
    }(std::make_index_sequence<tuple_size_v<T0>>{});
  } else {
    return f(t0, t1);
  }
}
template <class T0, class T1, class T2, class F>
BBX_HOST_DEVICE constexpr auto transform(T0 const& t0, T1 const& t1, T2 const& t2, F&& f) {
  if constexpr (is_tuple_v<T0>) {
    static_assert(tuple_size_v<T0> == tuple_size_v<T1> && tuple_size_v<T0> == tuple_size_v<T2>,
                  "transform: mismatched ranks");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_tuple(f(get<Is>(t0), get<Is>(t1), get<Is>(t2))...);
    }(std::make_index_sequence<tuple_size_v<T0>>{});
  } else {
    return f(t0, t1, t2);
  }
}

// fold(t, init, f): f(...f(f(init, t0), t1)..., tn); for a non-tuple t: f(init, t).
namespace detail {
template <std::size_t I, std::size_t N, class T, class V, class F>
BBX_HOST_DEVICE constexpr auto fold_impl(T const& t, V const& v, F& f) {
  if constexpr (I == N) {
    return v;
  } else {
    return fold_impl<I + 1, N>(t, f(v, get<I>(t)), f);
  }
}
}  // namespace detail
template <class T, class V, class F>
BBX_HOST_DEVICE constexpr auto fold(T const& t, V const& init, F&& f) {
  if constexpr (is_tuple_v<T>) {
    return detail::fold_impl<0, tuple_size_v<T>>(t, init, f);
  } else {
    return f(init, t);
  }
}

// for_each(t, f): f(get<I>(t)) for each I (f(t) for a non-tuple).
template <class T, class F>
BBX_HOST_DEVICE constexpr void for_each(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) {
    [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      (f(get<Is>(t)), ...);
    }(std::make_index_sequence<tuple_size_v<T>>{});
  } else {
    f(t);
  }
}

// wrap(x): x if a tuple, else tuple<X>{x}.
template <class T>
BBX_HOST_DEVICE constexpr auto wrap(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return t;
  } else {
    return make_tuple(t);
  }
}

// ---- rank / depth / product -----------------------------------------------------------------
template <class T>
BBX_HOST_DEVICE constexpr auto rank(T const&) {
  if constexpr (is_tuple_v<T>) {
    return Int<int(tuple_size_v<T>)>{};
  } else {
    return Int<1>{};
  }
}
template <int I0, int... Is, class T>
BBX_HOST_DEVICE constexpr auto rank(T const& t) {
  return rank(get<I0, Is...>(t));
}
namespace detail {
template <class T>
struct rank_impl : std::integral_constant<int, 1> {};
template <class... Ts>
struct rank_impl<tuple<Ts...>> : std::integral_constant<int, int(sizeof...(Ts))> {};
}  // namespace detail
template <class T>
inline constexpr int rank_v = detail::rank_impl<std::remove_cvref_t<T>>::value;

template <class T>
BBX_HOST_DEVICE constexpr auto depth(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return fold(t, _1{}, [](auto const& d, auto const& e) BBX_INLINE { return max(d, depth(e) + _1{}); });
  } else {
    return _0{};
  }
}
template <int I0, int... Is, class T>
BBX_HOST_DEVICE constexpr auto depth(T const& t) {
  return depth(get<I0, Is...>(t));
}
template <class T>
inline constexpr int depth_v = decltype(depth(std::declval<T>()))::value;

template <class T>
BBX_HOST_DEVICE constexpr auto product(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return fold(t, _1{}, [](auto const& p, auto const& e) BBX_INLINE { return p * product(e); });
  } else {
    return t;
  }
}
// size of an int tuple (of a layout: see layout.hpp)
template <class T>
  requires(is_tuple_v<T> || is_integral_v<T>)
BBX_HOST_DEVICE constexpr auto size(T const& t) {
  return product(t);
}
template <int I0, int... Is, class T>
  requires(is_tuple_v<T> || is_integral_v<T>)
BBX_HOST_DEVICE constexpr auto size(T const& t) {
  return product(get<I0, Is...>(t));
}
template <class T>
BBX_HOST_DEVICE constexpr auto sum(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return fold(t, _0{}, [](auto const& p, auto const& e) BBX_INLINE { return p + sum(e); });
  } else {
    return t;
  }
}
// product of each top-level mode
template <class T>
BBX_HOST_DEVICE constexpr auto product_each(T const& t) {
  return transform(wrap(t), [](auto const& e) BBX_INLINE { return product(e); });
}

template <class A, class B>
BBX_HOST_DEVICE constexpr auto inner_product(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> == tuple_size_v<B>,
                  "inner_product: mismatched profiles");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return (_0{} + ... + inner_product(get<Is>(a), get<Is>(b)));
    }(std::make_index_sequence<tuple_size_v<A>>{});
  } else {
    static_assert(!is_tuple_v<B>, "inner_product: mismatched profiles");
    return a * b;
  }
}

// ---- division ---------------------------------------------------------------------------------
// ceil_div(a, b): integers round up; a tuple `a` divided by an integer `b` consumes b mode by mode
// from the left; a tuple by a tuple works mode by mode (missing modes of b count as 1).
template <class A, class B>
BBX_HOST_DEVICE constexpr auto ceil_div(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    if constexpr (is_tuple_v<B>) {
      static_assert(tuple_size_v<A> >= tuple_size_v<B>, "ceil_div: divisor has a larger rank");
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
        return make_tuple([&]() BBX_INLINE {
          if constexpr (Is < tuple_size_v<B>) {
            return ceil_div(get<Is>(a), get<Is>(b));
          } else {
            return get<Is>(a);
          }
        }()...);
      }(std::make_index_sequence<tuple_size_v<A>>{});
    } else {
      auto r = fold(a, make_tuple(tuple<>{}, b), [](auto const& init, auto const& ai) BBX_INLINE {
        return make_tuple(tuple_cat(get<0>(init), make_tuple(ceil_div(ai, get<1>(init)))),
                          ceil_div(get<1>(init), product(ai)));
      });
      return get<0>(r);
    }
  } else if constexpr (is_tuple_v<B>) {
    return ceil_div(a, product(b));
  } else {
    return (a + b - _1{}) / b;
  }
}

// shape_div(a, b): a / b where one must divide the other, as CuTe: (a + b - 1) / b (so 1 when b
// is a positive multiple of a positive a).
// A tuple `a` divided by an integer consumes b from the left (column-major).
template <class A, class B>
BBX_HOST_DEVICE constexpr auto shape_div(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    if constexpr (is_tuple_v<B>) {
      static_assert(tuple_size_v<A> == tuple_size_v<B>, "shape_div: mismatched ranks");
      return transform(a, b, [](auto const& x, auto const& y) BBX_INLINE { return shape_div(x, y); });
    } else {
      auto r = fold(a, make_tuple(tuple<>{}, b), [](auto const& init, auto const& ai) BBX_INLINE {
        return make_tuple(tuple_cat(get<0>(init), make_tuple(shape_div(ai, get<1>(init)))),
                          shape_div(get<1>(init), product(ai)));
      });
      return get<0>(r);
    }
  } else if constexpr (is_tuple_v<B>) {
    return shape_div(a, product(b));
  } else if constexpr (is_C_v<A> && is_C_v<B>) {
    static_assert(B::value != 0, "shape_div: division by a static zero");
    static_assert(A::value % B::value == 0 || B::value % A::value == 0,
                  "shape_div: static operands do not divide one another");
    return C<(A::value + B::value - 1) / B::value>{};  // CuTe: (a + b - 1) / b
  } else {
    BBX_ASSERT(b != 0 && (a % b == 0 || b % a == 0),
               "shape_div: operands do not divide one another");
    using R = dynamic_t<A, B>;
    return R((R(a) + R(b) - 1) / R(b));
  }
}

// elem_less(a, b): every element of a is less than the matching element of b.
template <class A, class B>
BBX_HOST_DEVICE constexpr auto elem_less(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> <= tuple_size_v<B>,
                  "elem_less: mismatched profiles");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return (true_type{} && ... && elem_less(get<Is>(a), get<Is>(b)));
    }(std::make_index_sequence<tuple_size_v<A>>{});
  } else if constexpr (is_tuple_v<B>) {
    return elem_less(a, product(b));
  } else {
    return a < b;
  }
}

// ---- restructuring --------------------------------------------------------------------------
template <class T>
BBX_HOST_DEVICE constexpr auto flatten_to_tuple(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return apply(t, [](auto const&... es) BBX_INLINE { return tuple_cat(flatten_to_tuple(es)...); });
  } else {
    return make_tuple(t);
  }
}
// flatten(t): a rank-n tuple of integers (a non-tuple stays as it is).
template <class T>
BBX_HOST_DEVICE constexpr auto flatten(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return flatten_to_tuple(t);
  } else {
    return t;
  }
}

// unflatten(flat, profile): regroup a flat tuple like `profile`.
namespace detail {
template <class T>
inline constexpr std::size_t leaf_count_v = tuple_size_v<decltype(flatten_to_tuple(std::declval<T>()))>;
template <class P, std::size_t I>
constexpr std::size_t leaf_offset() {
  return []<std::size_t... Ks>(std::index_sequence<Ks...>) BBX_INLINE {
    return (std::size_t(0) + ... + leaf_count_v<tuple_element_t<Ks, P>>);
  }(std::make_index_sequence<I>{});
}
template <std::size_t Off, class F, class P>
BBX_HOST_DEVICE constexpr auto unflatten_impl(F const& flat, P const& profile) {
  if constexpr (is_tuple_v<P>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_tuple(unflatten_impl<Off + leaf_offset<P, Is>()>(flat, get<Is>(profile))...);
    }(std::make_index_sequence<tuple_size_v<P>>{});
  } else {
    return get<Off>(flat);
  }
}
}  // namespace detail
template <class F, class P>
BBX_HOST_DEVICE constexpr auto unflatten(F const& flat, P const& profile) {
  static_assert(tuple_size_v<decltype(wrap(flat))> == decltype(rank(flatten_to_tuple(profile)))::value,
                "unflatten: the flat tuple and the profile have different numbers of leaves");
  return detail::unflatten_impl<0>(wrap(flat), profile);
}

template <class T, class X>
BBX_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) {
    return tuple_cat(t, make_tuple(x));
  } else {
    return make_tuple(t, x);
  }
}
// append<N>(t, x): pad t (wrapped) with x up to rank N.
template <int N, class T, class X>
BBX_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  auto w = wrap(t);
  constexpr int R = int(tuple_size_v<decltype(w)>);
  static_assert(N >= R, "append<N>: N is smaller than the rank");
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
    return tuple_cat(w, make_tuple((void(Is), x)...));
  }(std::make_index_sequence<std::size_t(N - R)>{});
}
template <class T, class X>
BBX_HOST_DEVICE constexpr auto prepend(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) {
    return tuple_cat(make_tuple(x), t);
  } else {
    return make_tuple(x, t);
  }
}

// select<I...>(t) == (get<I>(t)...)
template <int... Is, class T>
BBX_HOST_DEVICE constexpr auto select(T const& t) {
  return make_tuple(get<Is>(t)...);
}
// take<B, E>(t) == (get<B>(t), ..., get<E-1>(t))
template <int B, int E, class T>
BBX_HOST_DEVICE constexpr auto take(T const& t) {
  static_assert(0 <= B && B <= E, "take: bad range");
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
    return make_tuple(get<B + Is>(t)...);
  }(std::make_index_sequence<std::size_t(E - B)>{});
}
// group_modes<B, E>(t) == (t0, ..., t_{B-1}, (t_B, ..., t_{E-1}), t_E, ...)
template <int B, int E, class T>
BBX_HOST_DEVICE constexpr auto group_modes(T const& t) {
  auto w = wrap(t);
  constexpr int R = int(tuple_size_v<decltype(w)>);
  static_assert(0 <= B && B <= E && E <= R, "group_modes: bad range");
  return tuple_cat(take<0, B>(w), make_tuple(take<B, E>(w)), take<E, R>(w));
}
// remove<I>(t)
template <int I, class T>
BBX_HOST_DEVICE constexpr auto remove(T const& t) {
  constexpr int R = int(tuple_size_v<T>);
  return tuple_cat(take<0, I>(t), take<I + 1, R>(t));
}
// reverse(t)
template <class T>
BBX_HOST_DEVICE constexpr auto reverse(T const& t) {
  if constexpr (is_tuple_v<T>) {
    constexpr std::size_t R = tuple_size_v<T>;
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_tuple(get<R - 1 - Is>(t)...);
    }(std::make_index_sequence<R>{});
  } else {
    return t;
  }
}
// zip((a0,a1,..),(b0,b1,..)) == ((a0,b0),(a1,b1),..)
template <class A, class B>
BBX_HOST_DEVICE constexpr auto zip(A const& a, B const& b) {
  return transform(wrap(a), wrap(b), [](auto const& x, auto const& y) BBX_INLINE { return make_tuple(x, y); });
}

// congruent(a, b): same hierarchical profile (a static bool).
namespace detail {
template <class A, class B>
struct congruent_impl : std::bool_constant<!is_tuple<A>::value && !is_tuple<B>::value> {};
template <class... As, class... Bs>
struct congruent_impl<tuple<As...>, tuple<Bs...>> {
  static constexpr bool value = [] {
    if constexpr (sizeof...(As) != sizeof...(Bs)) {
      return false;
    } else {
      return (congruent_impl<As, Bs>::value && ... && true);
    }
  }();
};
template <class A, class B>
struct weakly_congruent_impl : std::bool_constant<!is_tuple<A>::value> {};
template <class... As, class... Bs>
struct weakly_congruent_impl<tuple<As...>, tuple<Bs...>> {
  static constexpr bool value = [] {
    if constexpr (sizeof...(As) != sizeof...(Bs)) {
      return false;
    } else {
      return (weakly_congruent_impl<As, Bs>::value && ... && true);
    }
  }();
};
}  // namespace detail
template <class A, class B>
inline constexpr bool congruent_v = detail::congruent_impl<std::remove_cvref_t<A>, std::remove_cvref_t<B>>::value;
template <class A, class B>
BBX_HOST_DEVICE constexpr auto congruent(A const&, B const&) {
  return C<congruent_v<A, B>>{};
}
// weakly_congruent(a, b): a's profile is a coarsening of b's (an integer in a matches anything).
template <class A, class B>
BBX_HOST_DEVICE constexpr auto weakly_congruent(A const&, B const&) {
  return C<detail::weakly_congruent_impl<std::remove_cvref_t<A>, std::remove_cvref_t<B>>::value>{};
}

// ---- compact strides ------------------------------------------------------------------------
// compact_col_major(shape, init): exclusive prefix products, hierarchical (left-most fastest).
template <class S, class I = _1>
BBX_HOST_DEVICE constexpr auto compact_col_major(S const& s, I const& init = {}) {
  if constexpr (is_tuple_v<S>) {
    auto r = fold(s, make_tuple(tuple<>{}, init), [](auto const& acc, auto const& e) BBX_INLINE {
      return make_tuple(tuple_cat(get<0>(acc), make_tuple(compact_col_major(e, get<1>(acc)))),
                        get<1>(acc) * product(e));
    });
    return get<0>(r);
  } else {
    return init;
  }
}
// compact_row_major(shape, init): right-most mode fastest, hierarchically.
template <class S, class I = _1>
BBX_HOST_DEVICE constexpr auto compact_row_major(S const& s, I const& init = {}) {
  if constexpr (is_tuple_v<S>) {
    auto r = fold(reverse(s), make_tuple(tuple<>{}, init), [](auto const& acc, auto const& e) BBX_INLINE {
      return make_tuple(tuple_cat(make_tuple(compact_row_major(e, get<1>(acc))), get<0>(acc)),
                        get<1>(acc) * product(e));
    });
    return get<0>(r);
  } else {
    return init;
  }
}
// The layout tags CuTe uses for make_layout(shape, LayoutLeft{}).
struct LayoutLeft {};
struct LayoutRight {};

}  // namespace bbx
