// bbx/layout/complement.hpp — complement(layout, cotarget): the layout of the "holes" of `layout`
// up to `cotarget`, so that make_layout(layout, complement(layout, n)) covers [0, n).
//
// A static layout sorts its modes at compile time (static result; `cotarget` may be dynamic).
// A layout with any dynamic shape or stride sorts at run time and returns rank(flat)+1 dynamic
// modes (modes that pycute would drop become 1:0 modes).
#pragma once

#include "coalesce.hpp"
#include "detail_sort.hpp"

namespace bbx {

template <class S, class D, class CoTarget>
BBX_HOST_DEVICE constexpr auto complement(Layout<S, D> const& l, CoTarget const& cotarget) {
  auto fs = flatten_to_tuple(l.shape());
  auto fd = flatten_to_tuple(l.stride());
  using FS = decltype(fs);
  using FD = decltype(fd);
  constexpr int R = int(tuple_size_v<FS>);
  if constexpr (is_static_v<FS> && is_static_v<FD>) {
    constexpr auto perm = detail::static_sort_perm<FD, FS>(std::make_index_sequence<std::size_t(R)>{});
    auto r = [&]<std::size_t... Ks>(std::index_sequence<Ks...>) BBX_INLINE {
      return fold(make_tuple(Int<perm.v[Ks]>{}...), make_tuple(tuple<>{}, tuple<>{}, _1{}),
                  [](auto const& acc, auto i) BBX_INLINE {
                    constexpr int I = decltype(i)::value;
                    constexpr auto s = tuple_element_t<I, FS>::value;
                    constexpr auto d = tuple_element_t<I, FD>::value;
                    using Cur = std::remove_cvref_t<decltype(get<2>(acc))>;
                    if constexpr (d == 0 || s == 1) {
                      return acc;
                    } else {
                      static_assert(Cur::value <= s * d,
                                    "complement: the layout is not injective (overlapping modes)");
                      static_assert(d % Cur::value == 0,
                                    "complement: the layout is not injective (a stride is not a multiple of the previous extent)");
                      return make_tuple(append(get<0>(acc), C<d / Cur::value>{}),
                                        append(get<1>(acc), Cur{}), C<s * d>{});
                    }
                  });
    }(std::make_index_sequence<std::size_t(R)>{});
    auto cur = get<2>(r);
    return coalesce(make_layout(append(get<0>(r), ceil_div(cotarget, cur)), append(get<1>(r), cur)));
  } else {
    using T = dynamic_t<detail::tuple_dynamic_t<FS>, detail::tuple_dynamic_t<FD>, CoTarget>;
    auto s = detail::to_array<T>(fs);
    auto d = detail::to_array<T>(fd);
    auto perm = detail::dynamic_sort_perm(d, s);
    detail::small_array<T, R + 1> rs{}, rd{};
    T cur = 1;
    for (int k = 0; k < R; ++k) {
      int i = perm[k];
      if (d[i] == 0 || s[i] == 1) {
        rs[k] = 1;
        rd[k] = 0;
      } else {
        BBX_ASSERT(cur <= s[i] * d[i] && d[i] % cur == 0,
                   "complement: the layout is not injective / strides do not divide");
        rs[k] = d[i] / cur;
        rd[k] = cur;
        cur = s[i] * d[i];
      }
    }
    rs[R] = (T(cotarget) + cur - 1) / cur;
    rd[R] = cur;
    return coalesce(make_layout(detail::to_tuple<R + 1>(rs), detail::to_tuple<R + 1>(rd)));
  }
}
template <class S, class D>
BBX_HOST_DEVICE constexpr auto complement(Layout<S, D> const& l) {
  return complement(l, _1{});
}
}  // namespace bbx
