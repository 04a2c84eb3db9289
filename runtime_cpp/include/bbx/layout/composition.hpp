// bbx/layout/composition.hpp — composition(A, B): the layout c -> A(B(c)).
//
// B may be a layout, an integer n (== n:1), `_` (A unchanged) or a tiler: a tuple whose element i
// (layout / integer / `_` / nested tuple) is composed with mode i of A. The result has B's shape
// (for a tiler: one mode per tiler element; modes of A past the tiler are dropped, as CuTe) and
// follows CuTe's composition_impl, with the stride divisibility rule of the Python algebra
// (transpiler/trace/layout_compose.py): CuTe's weak condition, and where neither B's stride nor
// A's mode shape divides the other, all of B's rest must fit in that mode. For an A of static shape (or
// with a single flat mode) it works on types, as CuTe does: shape-1 modes are dropped and modes
// merged only where that is static, so dynamic strides (a tensor's) keep the result's shape
// static. For an A with several flat modes and a dynamic extent, each rank-1 piece of B is
// composed at run time (A is coalesced on values) into rank(flatten(A)) dynamic modes, unused
// ones 1:0.
#pragma once

#include "coalesce.hpp"
#include "composed_layout.hpp"
#include "detail_sort.hpp"

namespace bbx {

template <class A, class B>
BBX_HOST_DEVICE constexpr auto composition(A const& a, B const& b);

namespace detail {
// ceil(x / y) for a stride y that may be a run-time zero (then 1: a zero stride stays in place).
template <class X, class Y>
BBX_HOST_DEVICE constexpr auto ceil_div_or_one(X const& x, Y const& y) {
  if constexpr (is_C_v<Y>) {
    return ceil_div(x, y);
  } else {
    using R = dynamic_t<X, Y>;
    return y == 0 ? R(1) : R(ceil_div(x, y));
  }
}

// Run-time path: A has several flat modes and some of them are dynamic, so coalescing A (which the
// algorithm needs) can only be done on values. The result has rank(flatten(A)) dynamic modes, the
// unused ones 1:0.
template <class AS, class AD, class BS, class BD>
BBX_HOST_DEVICE constexpr auto composition_rank1_dynamic(Layout<AS, AD> const& a, BS const& s, BD const& d) {
  auto fs = detail::extend_trailing_unit(flatten_to_tuple(a.shape()));  // as coalesce_x
  auto fd = flatten_to_tuple(a.stride());
  constexpr int R = int(tuple_size_v<decltype(fs)>);
  using T = dynamic_t<tuple_dynamic_t<decltype(fs)>, tuple_dynamic_t<decltype(fd)>, BS, BD>;
  auto as = to_array<T>(fs);
  auto ad = to_array<T>(fd);
  // coalesce A (pycute's rules) into cs:cd, m modes
  small_array<T, R> cs{}, cd{};
  int m = 1;
  cs[0] = 1;
  cd[0] = 0;
  for (int i = 0; i < R; ++i) {
    if (as[i] == 1) continue;
    if (cs[m - 1] == 1) {
      cs[m - 1] = as[i];
      cd[m - 1] = ad[i];
    } else if (cs[m - 1] * cd[m - 1] == ad[i]) {
      cs[m - 1] = cs[m - 1] * as[i];
    } else {
      cs[m] = as[i];
      cd[m] = ad[i];
      ++m;
    }
  }
  small_array<T, R> rs{}, rd{};
  for (int i = 0; i < R; ++i) {
    rs[i] = 1;
    rd[i] = 0;
  }
  T rest_shape = T(s);
  T rest_stride = T(d);
  if (rest_stride == 0) {
    rs[0] = rest_shape;
  } else {
    int k = 0;
    for (int j = 0; j + 1 < m; ++j) {
      // CuTe's composition_impl step, with the Python algebra's rule where neither the stride
      // nor the mode shape divides the other (all of B's rest must fit in the mode).
      T c = cs[j];
      T abs_stride = rest_stride < 0 ? -rest_stride : rest_stride;
      T sign = rest_stride < 0 ? T(-1) : T(1);
      T next_shape = (c + abs_stride - 1) / abs_stride;
      T next_stride = (abs_stride + c - 1) / c * sign;
      if (next_shape != 1 && rest_shape != 1) {
        T new_shape = next_shape < rest_shape ? next_shape : rest_shape;
        BBX_ASSERT(abs_stride % c == 0 || c % abs_stride == 0 || new_shape == rest_shape,
                   "composition: stride divisibility condition violated");
        BBX_ASSERT(rest_shape % new_shape == 0, "composition: shape divisibility condition violated");
        rs[k] = new_shape;
        rd[k] = rest_stride * cd[j];
        ++k;
        rest_shape = rest_shape / new_shape;
      }
      rest_stride = next_stride;
    }
    if (rest_shape != 1 || k == 0) {
      rs[k] = rest_shape;
      rd[k] = rest_stride * cd[m - 1];
    }
  }
  return make_layout(to_tuple<R>(rs), to_tuple<R>(rd));
}

// A (any layout) composed with a rank-1 layout s:d (s an integer).
template <class AS, class AD, class BS, class BD>
BBX_HOST_DEVICE constexpr auto composition_rank1(Layout<AS, AD> const& a, BS const& s, BD const& d) {
  if constexpr (is_constant_v<0, BD>) {
    return make_layout(s, d);
  } else if constexpr (!is_static_v<AS> &&
                       tuple_size_v<decltype(flatten_to_tuple(std::declval<AS>()))> > 1) {
    return composition_rank1_dynamic(a, s, d);
  } else {
    auto flat_a = coalesce_x(a);
    auto fs = flatten_to_tuple(flat_a.shape());
    auto fd = flatten_to_tuple(flat_a.stride());
    constexpr int R = int(tuple_size_v<decltype(fs)>);
    // state: (result shapes, result strides, rest_shape, rest_stride)
    auto r = fold(take<0, R - 1>(zip(fs, fd)), make_tuple(tuple<>{}, tuple<>{}, s, d),
                  [](auto const& acc, auto const& sd) BBX_INLINE {
                    auto const& cs = get<0>(sd);
                    auto const& cd = get<1>(sd);
                    auto const& rest_shape = get<2>(acc);
                    auto const& rest_stride = get<3>(acc);
                    using CS = std::remove_cvref_t<decltype(cs)>;
                    using RST = std::remove_cvref_t<decltype(rest_stride)>;
                    using RS = std::remove_cvref_t<decltype(rest_shape)>;
                    // CuTe's (weak) stride divisibility condition, checked where it is static.
                    if constexpr (is_C_v<CS> && is_C_v<RST>) {
                      static_assert(RST::value % CS::value == 0 || RST::value < CS::value,
                                    "composition: stride divisibility condition violated "
                                    "(B's stride is neither a multiple of nor less than a mode "
                                    "shape of A)");
                    }
                    // next shape: ceil(shape / |stride|); next stride: ceil(|stride| / shape)
                    auto abs_stride = abs(rest_stride);
                    auto next_shape = ceil_div_or_one(cs, abs_stride);
                    auto next_stride = ceil_div(abs_stride, cs) * signum(rest_stride);
                    using NXS = std::remove_cvref_t<decltype(next_shape)>;
                    if constexpr (is_constant_v<1, NXS> || is_constant_v<1, RS>) {
                      return make_tuple(get<0>(acc), get<1>(acc), rest_shape, next_stride);
                    } else {
                      auto new_shape = min(next_shape, rest_shape);
                      using NS = std::remove_cvref_t<decltype(new_shape)>;
                      // Where neither the stride nor the mode shape divides the other, CuTe's
                      // weak condition admits layouts it builds wrongly; the composition is
                      // exact only when all of B's rest fits in this mode (the Python algebra's
                      // rule, transpiler/trace/layout_compose.py).
                      if constexpr (is_C_v<CS> && is_C_v<RST>) {
                        if constexpr (RST::value % CS::value != 0 && CS::value % RST::value != 0) {
                          if constexpr (is_C_v<RS>) {
                            static_assert(NS::value == RS::value,
                                          "composition: stride divisibility condition violated "
                                          "(B's stride does not divide a mode shape of A, and B's "
                                          "extent does not fit in that mode)");
                          } else {
                            BBX_ASSERT(new_shape == rest_shape,
                                       "composition: stride divisibility condition violated");
                          }
                        }
                      } else {
                        BBX_ASSERT(rest_stride == 0 || abs_stride % cs == 0 || cs % abs_stride == 0 ||
                                       new_shape == rest_shape,
                                   "composition: stride divisibility condition violated");
                      }
                      if constexpr (is_C_v<NS> && is_C_v<RS>) {
                        static_assert(RS::value % NS::value == 0,
                                      "composition: shape divisibility condition violated "
                                      "(B's extent does not split evenly over A's modes)");
                      } else {
                        BBX_ASSERT(rest_shape % new_shape == 0,
                                   "composition: shape divisibility condition violated");
                      }
                      return make_tuple(append(get<0>(acc), new_shape),
                                        append(get<1>(acc), rest_stride * cd), rest_shape / new_shape,
                                        next_stride);
                    }
                  });
    auto const& rs = get<0>(r);
    auto const& rd = get<1>(r);
    auto const& rest_shape = get<2>(r);
    auto const& rest_stride = get<3>(r);
    constexpr int N = int(tuple_size_v<std::remove_cvref_t<decltype(rs)>>);
    auto last_d = get<R - 1>(fd);
    if constexpr (N == 0) {
      return make_layout(rest_shape, rest_stride * last_d);
    } else if constexpr (is_constant_v<1, std::remove_cvref_t<decltype(rest_shape)>>) {
      if constexpr (N == 1) {
        return make_layout(get<0>(rs), get<0>(rd));
      } else {
        return make_layout(rs, rd);
      }
    } else {
      return make_layout(append(rs, rest_shape), append(rd, rest_stride * last_d));
    }
  }
}

// A composed with a layout B (any rank).
template <class AS, class AD, class BS, class BD>
BBX_HOST_DEVICE constexpr auto composition_layout(Layout<AS, AD> const& a, Layout<BS, BD> const& b) {
  if constexpr (is_tuple_v<BS>) {
    return make_layout_from_tuple(transform(b.shape(), b.stride(), [&](auto const& s, auto const& d) BBX_INLINE {
      return composition_layout(a, make_layout(s, d));
    }));
  } else {
    return composition_rank1(a, b.shape(), b.stride());
  }
}
}  // namespace detail

template <class A, class B>
BBX_HOST_DEVICE constexpr auto composition(A const& a, B const& b) {
  if constexpr (is_composed_layout_v<A>) {
    return make_composed_layout(a.layout_a(), a.offset(), composition(a.layout_b(), b));
  } else if constexpr (is_swizzle_v<A>) {
    static_assert(is_layout_v<B>, "composition: a swizzle composes with a layout only");
    return make_composed_layout(a, _0{}, b);
  } else {
    static_assert(is_layout_v<A>, "composition: the left operand must be a layout");
    if constexpr (is_underscore_v<B>) {
      return a;
    } else if constexpr (is_layout_v<B>) {
      return detail::composition_layout(a, b);
    } else if constexpr (is_tuple_v<B>) {
      constexpr int R = rank_v<typename A::shape_type>;
      constexpr int RB = int(tuple_size_v<B>);
      static_assert(RB <= R, "composition: the tiler has a larger rank than the layout");
      // the modes of A that the tiler does not reach are dropped (CuTe): the result has the
      // tiler's rank
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
        return make_layout_from_tuple(make_tuple(composition(layout<int(Is)>(a), get<Is>(b))...));
      }(std::make_index_sequence<std::size_t(RB)>{});
    } else {
      static_assert(is_integral_v<B>, "composition: the right operand must be a layout, an integer, _ or a tiler");
      return detail::composition_layout(a, make_layout(b));
    }
  }
}

}  // namespace bbx
