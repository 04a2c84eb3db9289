// bbx/layout/inverse.hpp — right_inverse(L): L(R(i)) == i for i < size(R);
//                         left_inverse(L):  Linv(L(i)) == i for i < size(L).
// Static layouts give static results; dynamic ones are sorted at run time (the modes pycute drops
// become shape-1 modes).
#pragma once

#include "complement.hpp"

namespace bbx {

template <class S, class D>
BBX_HOST_DEVICE constexpr auto right_inverse(Layout<S, D> const& l) {
  auto fs = flatten_to_tuple(l.shape());
  auto fd = flatten_to_tuple(l.stride());
  auto fp = compact_col_major(fs);  // the domain stride of each flat mode
  using FS = decltype(fs);
  using FD = decltype(fd);
  using FP = decltype(fp);
  constexpr int R = int(tuple_size_v<FS>);
  if constexpr (is_static_v<FS> && is_static_v<FD>) {
    constexpr auto perm = detail::static_sort_perm<FD, FS>(std::make_index_sequence<std::size_t(R)>{});
    // state: (shapes, strides, current index, stopped?)
    auto r = [&]<std::size_t... Ks>(std::index_sequence<Ks...>) BBX_INLINE {
      return fold(make_tuple(Int<perm.v[Ks]>{}...), make_tuple(tuple<>{}, tuple<>{}, _1{}, false_type{}),
                  [](auto const& acc, auto i) BBX_INLINE {
                    constexpr int I = decltype(i)::value;
                    constexpr auto s = tuple_element_t<I, FS>::value;
                    constexpr auto d = tuple_element_t<I, FD>::value;
                    using Cur = std::remove_cvref_t<decltype(get<2>(acc))>;
                    using Stop = std::remove_cvref_t<decltype(get<3>(acc))>;
                    if constexpr (Stop::value || s == 1) {
                      return acc;
                    } else if constexpr (Cur::value != d) {
                      return make_tuple(get<0>(acc), get<1>(acc), Cur{}, true_type{});
                    } else {
                      return make_tuple(append(get<0>(acc), C<s>{}),
                                        append(get<1>(acc), tuple_element_t<I, FP>{}), C<s * d>{},
                                        false_type{});
                    }
                  });
    }(std::make_index_sequence<std::size_t(R)>{});
    return coalesce(make_layout(get<0>(r), get<1>(r)));
  } else {
    using T = dynamic_t<detail::tuple_dynamic_t<FS>, detail::tuple_dynamic_t<FD>>;
    auto s = detail::to_array<T>(fs);
    auto d = detail::to_array<T>(fd);
    auto p = detail::to_array<T>(fp);
    // pycute sorts by (stride, shape, prefix); prefix products grow with the index, so (d, s, i).
    auto perm = detail::dynamic_sort_perm(d, s);
    detail::small_array<T, R> rs{}, rd{};
    T cur = 1;
    bool stop = false;
    for (int k = 0; k < R; ++k) {
      int i = perm[k];
      if (stop || s[i] == 1 || cur != d[i]) {
        stop = stop || s[i] != 1;
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

template <class S, class D>
BBX_HOST_DEVICE constexpr auto left_inverse(Layout<S, D> const& l) {
  return right_inverse(make_layout(l, complement(l)));
}

}  // namespace bbx
