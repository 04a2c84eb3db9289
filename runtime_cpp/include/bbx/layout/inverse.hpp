// bbx/layout/inverse.hpp — right_inverse(L): L(R(i)) == i for i < size(R);
//                         left_inverse(L):  Linv(L(i)) == i for i < size(L).
// Both follow CuTe (include/cute/layout.hpp). A right inverse of a static layout is static; one
// with run-time leaves is sorted at run time (the skipped modes become shape-1 modes). A left
// inverse needs static strides.
#pragma once

#include "complement.hpp"

namespace bbx {

namespace detail {
// (C<0>, C<1>, ..., C<N-1>): the mode indices as a static key (stable sorts by stride).
template <std::size_t... Is>
constexpr auto index_key(std::index_sequence<Is...>) {
  return tuple<C<int(Is)>...>{};
}
}  // namespace detail

// CuTe's right_inverse: the coalesced modes in stride order; a mode whose stride continues the
// inverse (== the extent reached so far) is appended, any other mode is skipped (not a stop).
template <class S, class D>
BBX_HOST_DEVICE constexpr auto right_inverse(Layout<S, D> const& l) {
  auto cl = coalesce(l);
  auto fs = flatten_to_tuple(cl.shape());
  auto fd = flatten_to_tuple(cl.stride());
  auto fp = compact_col_major(fs);  // the domain stride of each flat mode
  using FS = decltype(fs);
  using FD = decltype(fd);
  using FP = decltype(fp);
  constexpr int R = int(tuple_size_v<FS>);
  if constexpr (is_static_v<FS> && is_static_v<FD>) {
    using Key = decltype(detail::index_key(std::make_index_sequence<std::size_t(R)>{}));
    constexpr auto perm = detail::static_sort_perm<FD, Key>(std::make_index_sequence<std::size_t(R)>{});
    // state: (shapes, strides, current extent)
    auto r = [&]<std::size_t... Ks>(std::index_sequence<Ks...>) BBX_INLINE {
      return fold(make_tuple(Int<perm.v[Ks]>{}...), make_tuple(tuple<>{}, tuple<>{}, _1{}),
                  [](auto const& acc, auto i) BBX_INLINE {
                    constexpr int I = decltype(i)::value;
                    constexpr auto s = tuple_element_t<I, FS>::value;
                    constexpr auto d = tuple_element_t<I, FD>::value;
                    using Cur = std::remove_cvref_t<decltype(get<2>(acc))>;
                    if constexpr (s == 1 || Cur::value != d) {
                      return acc;
                    } else {
                      return make_tuple(append(get<0>(acc), C<s>{}),
                                        append(get<1>(acc), tuple_element_t<I, FP>{}), C<s * d>{});
                    }
                  });
    }(std::make_index_sequence<std::size_t(R)>{});
    return coalesce(make_layout(get<0>(r), get<1>(r)));
  } else {
    using T = dynamic_t<detail::tuple_dynamic_t<FS>, detail::tuple_dynamic_t<FD>>;
    auto s = detail::to_array<T>(fs);
    auto d = detail::to_array<T>(fd);
    auto p = detail::to_array<T>(fp);
    // The run-time values may coalesce further than the types did ((2,2):(2,4) is 4:2): merge
    // each mode into the kept one before it whose extent it continues, as the static coalesce
    // would (the merged mode becomes 1:0), so the inverse below sees the coalesced modes.
    for (int i = 1, last = -1; i < R; ++i) {
      if (last < 0 || s[i - 1] != 1) last = i - 1;
      if (s[last] != 1 && s[i] != 1 && s[last] * d[last] == d[i]) {
        s[last] = s[last] * s[i];
        s[i] = 1;
        d[i] = 0;
      }
    }
    detail::small_array<T, R> idx{};
    for (int i = 0; i < R; ++i) idx[i] = T(i);
    auto perm = detail::dynamic_sort_perm(d, idx);  // by stride, ties by mode index
    detail::small_array<T, R> rs{}, rd{};
    T cur = 1;
    for (int k = 0; k < R; ++k) {
      int i = perm[k];
      if (s[i] == 1 || cur != d[i]) {  // skipped, as CuTe (run-time: a 1:0 mode)
        rs[k] = 1;
        rd[k] = 0;
      } else {
        rs[k] = s[i];
        rd[k] = p[i];
        cur = s[i] * d[i];
      }
    }
    return coalesce(make_layout(detail::to_tuple<R>(rs), detail::to_tuple<R>(rd)));
  }
}

// CuTe's left_inverse: the coalesced modes in stride order, stride-0 modes skipped; each mode
// contributes the shape stride / (size so far) at its domain stride, and the last mode's shape
// closes the layout. Needs static strides (CuTe); shapes may be run-time values other than 1.
template <class S, class D>
BBX_HOST_DEVICE constexpr auto left_inverse(Layout<S, D> const& l) {
  auto cl = coalesce(l);
  auto fs = flatten_to_tuple(cl.shape());
  auto fd = flatten_to_tuple(cl.stride());
  auto fp = compact_col_major(fs);
  using FS = decltype(fs);
  using FD = decltype(fd);
  constexpr int R = int(tuple_size_v<FS>);
  static_assert(is_static_v<FD>, "left_inverse: the strides must be static (as CuTe)");
  if constexpr (R > 1 && !is_static_v<FS>) {
    // coalescing drops the shape-1 modes only where the shape is static
    [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      BBX_ASSERT(((get<Is>(fs) != 1) && ...),
                 "left_inverse: a run-time mode of shape 1 (it is not dropped; CuTe requires a static layout)");
    }(std::make_index_sequence<std::size_t(R)>{});
  }
  using Key = decltype(detail::index_key(std::make_index_sequence<std::size_t(R)>{}));
  constexpr auto perm = detail::static_sort_perm<FD, Key>(std::make_index_sequence<std::size_t(R)>{});
  auto r = [&]<std::size_t... Ks>(std::index_sequence<Ks...>) BBX_INLINE {
    // state: (shapes, strides, size of the shapes so far)
    return fold(make_tuple(Int<perm.v[Ks]>{}...), make_tuple(tuple<>{}, tuple<_0>{}, _1{}),
                [&](auto const& acc, auto i) BBX_INLINE {
                  constexpr int I = decltype(i)::value;
                  constexpr auto d = tuple_element_t<I, FD>::value;
                  using N = std::remove_cvref_t<decltype(get<2>(acc))>;
                  if constexpr (d == 0) {
                    return acc;
                  } else {
                    static_assert(d % N::value == 0,
                                  "left_inverse: divisibility condition violated (a stride is not "
                                  "a multiple of the size so far: the layout is not injective)");
                    return make_tuple(append(get<0>(acc), C<d / N::value>{}),
                                      append(get<1>(acc), get<I>(fp)), C<d>{});
                  }
                });
  }(std::make_index_sequence<std::size_t(R)>{});
  constexpr int Last = perm.v[R - 1];
  return coalesce(make_layout(append(get<0>(r), get<Last>(fs)), get<1>(r)));
}

}  // namespace bbx
