// bbx/layout/layout.hpp — Layout<Shape, Stride>: a map from coordinates to linear indices.
#pragma once

#include "int_tuple.hpp"

namespace bbx {

// ---- coordinate <-> index -------------------------------------------------------------------
// crd2idx(coord, shape, stride): inner product of a (possibly hierarchical, possibly partial)
// coordinate with the stride. An integer coordinate for a tuple mode is split column-major.
template <class Crd, class S, class D>
BBX_HOST_DEVICE constexpr auto crd2idx(Crd const& crd, S const& shape, D const& stride) {
  if constexpr (is_tuple_v<Crd>) {
    static_assert(is_tuple_v<S> && is_tuple_v<D>, "crd2idx: tuple coordinate for an integer shape");
    static_assert(tuple_size_v<Crd> == tuple_size_v<S> && tuple_size_v<S> == tuple_size_v<D>,
                  "crd2idx: coordinate, shape and stride ranks differ");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return (_0{} + ... + crd2idx(get<Is>(crd), get<Is>(shape), get<Is>(stride)));
    }(std::make_index_sequence<tuple_size_v<Crd>>{});
  } else if constexpr (is_tuple_v<S>) {
    static_assert(is_tuple_v<D> && tuple_size_v<S> == tuple_size_v<D>,
                  "crd2idx: shape and stride ranks differ");
    constexpr std::size_t R = tuple_size_v<S>;
    if constexpr (R == 0) {
      return _0{};
    } else {
      // All but the last mode take `crd % size(mode)`, the last takes what is left.
      auto r = fold(take<0, int(R) - 1>(zip(shape, stride)), make_tuple(_0{}, crd),
                    [](auto const& acc, auto const& sd) BBX_INLINE {
                      auto n = product(get<0>(sd));
                      return make_tuple(get<0>(acc) + crd2idx(get<1>(acc) % n, get<0>(sd), get<1>(sd)),
                                        get<1>(acc) / n);
                    });
      return get<0>(r) + crd2idx(get<1>(r), get<R - 1>(shape), get<R - 1>(stride));
    }
  } else {
    return crd * stride;
  }
}
// crd2idx(coord, shape): column-major compact.
template <class Crd, class S>
BBX_HOST_DEVICE constexpr auto crd2idx(Crd const& crd, S const& shape) {
  return crd2idx(crd, shape, compact_col_major(shape));
}

// idx2crd(idx, shape, stride): the natural (hierarchical) coordinate, (idx / d) % s per leaf.
template <class Idx, class S, class D>
BBX_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, S const& shape, D const& stride) {
  if constexpr (is_tuple_v<Idx>) {
    static_assert(is_tuple_v<S> && tuple_size_v<Idx> == tuple_size_v<S>,
                  "idx2crd: index and shape profiles differ");
    return transform(idx, shape, stride,
                     [](auto const& i, auto const& s, auto const& d) BBX_INLINE { return idx2crd(i, s, d); });
  } else if constexpr (is_tuple_v<S>) {
    return transform(shape, stride, [&](auto const& s, auto const& d) BBX_INLINE { return idx2crd(idx, s, d); });
  } else if constexpr (is_constant_v<1, S>) {
    return _0{};  // as CuTe: a static shape-1 mode (often stride 0) has coordinate 0
  } else {
    return (idx / stride) % shape;
  }
}
// idx2crd(idx, shape): flat index -> natural coordinate of a column-major shape.
template <class Idx, class S>
BBX_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, S const& shape) {
  return idx2crd(idx, shape, compact_col_major(shape));
}

// ---- slicing of int tuples --------------------------------------------------------------------
// slice(coord, t): keep the modes of t where coord has `_` (CuTe semantics).
template <class Crd, class T>
BBX_HOST_DEVICE constexpr auto slice(Crd const& c, T const& t);
namespace detail {
template <class Crd, class T>
BBX_HOST_DEVICE constexpr auto lift_slice(Crd const& c, T const& t) {
  if constexpr (is_tuple_v<Crd>) {
    // The kept modes of a nested coordinate join the parent's list: slicing
    // ((TM,TN),(RM,RN)) with ((_,_),i) gives (TM,TN), as in CuTe and the DSL.
    if constexpr (has_underscore_v<Crd>) {
      return slice(c, t);
    } else {
      return tuple<>{};
    }
  } else if constexpr (is_underscore_v<Crd>) {
    return make_tuple(t);
  } else {
    return tuple<>{};
  }
}
// dice-complement: keep the coordinate parts that are not `_` (for the slice offset).
template <class Crd>
BBX_HOST_DEVICE constexpr auto zero_underscores(Crd const& c) {
  if constexpr (is_tuple_v<Crd>) {
    return transform(c, [](auto const& e) BBX_INLINE { return zero_underscores(e); });
  } else if constexpr (is_underscore_v<Crd>) {
    return _0{};
  } else {
    return c;
  }
}
}  // namespace detail
template <class Crd, class T>
BBX_HOST_DEVICE constexpr auto slice(Crd const& c, T const& t) {
  if constexpr (is_tuple_v<Crd>) {
    static_assert(is_tuple_v<T> && tuple_size_v<Crd> == tuple_size_v<T>,
                  "slice: coordinate and target ranks differ");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return tuple_cat(tuple<>{}, detail::lift_slice(get<Is>(c), get<Is>(t))...);
    }(std::make_index_sequence<tuple_size_v<Crd>>{});
  } else if constexpr (is_underscore_v<Crd>) {
    return t;
  } else {
    return tuple<>{};
  }
}

// ---- Layout -----------------------------------------------------------------------------------
template <class Shape, class Stride>
struct Layout;

template <class T>
struct is_layout : std::false_type {};
template <class S, class D>
struct is_layout<Layout<S, D>> : std::true_type {};
template <class T>
inline constexpr bool is_layout_v = is_layout<std::remove_cvref_t<T>>::value;

template <class Shape, class Stride>
BBX_HOST_DEVICE constexpr auto make_layout(Shape const& shape, Stride const& stride);

template <class Shape, class Stride = decltype(compact_col_major(std::declval<Shape>()))>
struct Layout : private tuple<Shape, Stride> {
  using shape_type = Shape;
  using stride_type = Stride;
  using base_t = tuple<Shape, Stride>;

  BBX_HOST_DEVICE constexpr Layout(Shape const& shape = {}, Stride const& stride = {})
      : base_t(shape, stride) {}
  // Conversion from a layout with convertible shape/stride (e.g. static -> dynamic). Unconstrained
  // for compile speed (copies of the same type take the implicit copy constructor).
  template <class S2, class D2>
  BBX_HOST_DEVICE constexpr Layout(Layout<S2, D2> const& other)
      : base_t(Shape(other.shape()), Stride(other.stride())) {}

  BBX_HOST_DEVICE constexpr decltype(auto) shape() const {
    return get<0>(static_cast<base_t const&>(*this));
  }
  BBX_HOST_DEVICE constexpr decltype(auto) stride() const {
    return get<1>(static_cast<base_t const&>(*this));
  }

  // coordinate -> index, or (with `_` in the coordinate) the sliced sub-layout.
  template <class Crd>
  BBX_HOST_DEVICE constexpr auto operator()(Crd const& c) const {
    if constexpr (has_underscore_v<Crd>) {
      return make_layout(slice(c, shape()), slice(c, stride()));
    } else {
      return crd2idx(c, shape(), stride());
    }
  }
  template <class C0, class C1, class... Cs>
  BBX_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(make_coord(c0, c1, cs...));
  }

  static constexpr int rank = rank_v<Shape>;
};

template <class Shape, class Stride>
BBX_HOST_DEVICE constexpr auto make_layout(Shape const& shape, Stride const& stride) {
  if constexpr (std::is_same_v<Stride, LayoutLeft>) {
    return make_layout(shape, compact_col_major(shape));
  } else if constexpr (std::is_same_v<Stride, LayoutRight>) {
    return make_layout(shape, compact_row_major(shape));
  } else {
    static_assert(!is_layout_v<Shape> && !is_layout_v<Stride>, "make_layout: mixed arguments");
    static_assert(congruent_v<Shape, Stride>, "make_layout: shape and stride are not congruent");
    return Layout<Shape, Stride>(shape, stride);
  }
}
// make_layout(shape): column-major compact.
template <class Shape>
  requires(!is_layout_v<Shape>)
BBX_HOST_DEVICE constexpr auto make_layout(Shape const& shape) {
  return make_layout(shape, compact_col_major(shape));
}
// make_layout(layout) is the layout itself; make_layout(l0, l1, ...) concatenates modes.
template <class S, class D>
BBX_HOST_DEVICE constexpr auto make_layout(Layout<S, D> const& l) {
  return l;
}
template <class S0, class D0, class S1, class D1, class... Ls>
BBX_HOST_DEVICE constexpr auto make_layout(Layout<S0, D0> const& l0, Layout<S1, D1> const& l1,
                                           Ls const&... ls) {
  static_assert((is_layout_v<Ls> && ...), "make_layout: every argument must be a layout");
  return make_layout(make_shape(l0.shape(), l1.shape(), ls.shape()...),
                     make_stride(l0.stride(), l1.stride(), ls.stride()...));
}
// make_layout from a tuple of layouts.
template <class... Ls>
BBX_HOST_DEVICE constexpr auto make_layout_from_tuple(tuple<Ls...> const& ls) {
  static_assert((is_layout_v<Ls> && ...), "make_layout_from_tuple: every element must be a layout");
  return make_layout(transform(ls, [](auto const& l) BBX_INLINE { return l.shape(); }),
                     transform(ls, [](auto const& l) BBX_INLINE { return l.stride(); }));
}

namespace detail {
// product_like(shape, order): shape reduced to order's profile (each order leaf: the product of
// its sub-shape).
template <class S, class O>
BBX_HOST_DEVICE constexpr auto product_like(S const& s, O const& o) {
  if constexpr (is_tuple_v<O>) {
    return transform(s, o, [](auto const& x, auto const& y) BBX_INLINE { return product_like(x, y); });
  } else {
    return product(s);
  }
}
// CuTe's compact_order: an order leaf over a sub-shape makes it compact column-major, starting at
// the product of the (reduced) shapes whose order value is strictly less (equal orders start at
// the same stride).
template <class S, class O, class RefShape, class RefOrder>
BBX_HOST_DEVICE constexpr auto compact_order(S const& s, O const& o, RefShape const& ref_shape,
                                             RefOrder const& ref_order) {
  if constexpr (is_tuple_v<O>) {
    static_assert(tuple_size_v<S> == tuple_size_v<O>, "make_ordered_layout: rank of shape and order differ");
    return transform(s, o, [&](auto const& x, auto const& y) BBX_INLINE { return compact_order(x, y, ref_shape, ref_order); });
  } else {
    auto start = [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return (_1{} * ... * [&]() BBX_INLINE {
        if constexpr (tuple_element_t<Is, RefOrder>::value < O::value) {
          return get<Is>(ref_shape);
        } else {
          return _1{};
        }
      }());
    }(std::make_index_sequence<tuple_size_v<RefOrder>>{});
    return compact_col_major(s, start);
  }
}
}  // namespace detail

// make_ordered_layout(shape, order): compact strides where the mode with the smallest order value
// is fastest (CuTe's compact_order: equal order values start at the same stride; an order leaf
// over a sub-shape makes that sub-shape compact column-major). `order` is static and weakly
// congruent to `shape`.
template <class Shape, class Order>
BBX_HOST_DEVICE constexpr auto make_ordered_layout(Shape const& shape, Order const& order) {
  static_assert(is_static_v<Order>, "make_ordered_layout: the order must be static");
  static_assert(decltype(weakly_congruent(order, shape))::value,
                "make_ordered_layout: the order is not weakly congruent to the shape");
  auto ref_shape = flatten_to_tuple(detail::product_like(shape, order));
  using RefOrder = decltype(flatten_to_tuple(order));
  return make_layout(shape, detail::compact_order(shape, order, ref_shape, RefOrder{}));
}

// ---- queries ----------------------------------------------------------------------------------
template <class S, class D>
BBX_HOST_DEVICE constexpr auto size(Layout<S, D> const& l) {
  return product(l.shape());
}
template <int I0, int... Is, class S, class D>
BBX_HOST_DEVICE constexpr auto size(Layout<S, D> const& l) {
  return product(get<I0, Is...>(l.shape()));
}
template <class S, class D>
BBX_HOST_DEVICE constexpr auto rank(Layout<S, D> const& l) {
  return rank(l.shape());
}
template <int I0, int... Is, class S, class D>
BBX_HOST_DEVICE constexpr auto rank(Layout<S, D> const& l) {
  return rank(get<I0, Is...>(l.shape()));
}
template <class S, class D>
BBX_HOST_DEVICE constexpr auto depth(Layout<S, D> const& l) {
  return depth(l.shape());
}
template <int I0, int... Is, class S, class D>
BBX_HOST_DEVICE constexpr auto depth(Layout<S, D> const& l) {
  return depth(get<I0, Is...>(l.shape()));
}
// shape<I...>(x) / stride<I...>(x): of a layout, or of an int tuple (shape only).
template <int... Is, class S, class D>
BBX_HOST_DEVICE constexpr decltype(auto) shape(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) {
    return l.shape();
  } else {
    return get<Is...>(l.shape());
  }
}
template <int... Is, class T>
  requires(!is_layout_v<T>)
BBX_HOST_DEVICE constexpr decltype(auto) shape(T const& t) {
  if constexpr (sizeof...(Is) == 0) {
    return t;
  } else {
    return get<Is...>(t);
  }
}
template <int... Is, class S, class D>
BBX_HOST_DEVICE constexpr decltype(auto) stride(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) {
    return l.stride();
  } else {
    return get<Is...>(l.stride());
  }
}
// layout<I...>(l): the sub-layout of mode I (hierarchically).
template <int... Is, class S, class D>
BBX_HOST_DEVICE constexpr auto layout(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) {
    return l;
  } else {
    return make_layout(get<Is...>(l.shape()), get<Is...>(l.stride()));
  }
}
template <std::size_t I, class S, class D>
BBX_HOST_DEVICE constexpr auto get(Layout<S, D> const& l) {
  return make_layout(get<I>(l.shape()), get<I>(l.stride()));
}
// cosize(l) == l(size(l) - 1) + 1 (for non-negative strides).
template <class S, class D>
BBX_HOST_DEVICE constexpr auto cosize(Layout<S, D> const& l) {
  return l(size(l) - _1{}) + _1{};
}

// slice(coord, layout) and slice_and_offset(coord, layout) -> (sub-layout, offset).
template <class Crd, class S, class D>
BBX_HOST_DEVICE constexpr auto slice(Crd const& c, Layout<S, D> const& l) {
  return make_layout(slice(c, l.shape()), slice(c, l.stride()));
}
template <class Crd, class S, class D>
BBX_HOST_DEVICE constexpr auto slice_and_offset(Crd const& c, Layout<S, D> const& l) {
  return make_tuple(slice(c, l), crd2idx(detail::zero_underscores(c), l.shape(), l.stride()));
}

// Layouts compare by shape and stride.
template <class S0, class D0, class S1, class D1>
BBX_HOST_DEVICE constexpr auto operator==(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  if constexpr (decltype(congruent(a.shape(), b.shape()))::value &&
                decltype(congruent(a.stride(), b.stride()))::value) {
    return wrap(a.shape()) == wrap(b.shape()) && wrap(a.stride()) == wrap(b.stride());
  } else {
    return false_type{};
  }
}

}  // namespace bbx
