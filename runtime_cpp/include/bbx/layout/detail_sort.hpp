// bbx/layout/detail_sort.hpp — helpers shared by the algebra: small fixed-size arrays for the
// run-time (dynamic) paths and compile-time sorting permutations for the static paths.
#pragma once

#include "layout.hpp"

namespace bbx::detail {

template <class T, int N>
struct small_array {
  T v[N > 0 ? N : 1];
  BBX_HOST_DEVICE constexpr T& operator[](int i) { return v[i]; }
  BBX_HOST_DEVICE constexpr T const& operator[](int i) const { return v[i]; }
};

template <class Tup>
struct tuple_dynamic_type;
template <class... Ts>
struct tuple_dynamic_type<tuple<Ts...>> {
  using type = dynamic_t<int, Ts...>;
};
template <class Tup>
using tuple_dynamic_t = typename tuple_dynamic_type<std::remove_cvref_t<Tup>>::type;

// Flat tuple of integers -> run-time array.
template <class T, class Tup>
BBX_HOST_DEVICE constexpr auto to_array(Tup const& t) {
  constexpr int N = int(tuple_size_v<Tup>);
  small_array<T, N> a{};
  [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
    ((a[int(Is)] = T(get<Is>(t))), ...);
  }(std::make_index_sequence<std::size_t(N)>{});
  return a;
}
// Run-time array -> flat tuple of N run-time integers.
template <int N, class T, int M>
BBX_HOST_DEVICE constexpr auto to_tuple(small_array<T, M> const& a) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
    return make_tuple(a[int(Is)]...);
  }(std::make_index_sequence<std::size_t(N)>{});
}

// Compile-time permutation that sorts the (static) keys lexicographically by (k0[i], k1[i], i).
template <class K0, class K1, std::size_t... Is>
constexpr small_array<int, int(sizeof...(Is))> static_sort_perm(std::index_sequence<Is...>) {
  constexpr int N = int(sizeof...(Is));
  long long a[N > 0 ? N : 1] = {(long long)tuple_element_t<Is, K0>::value...};
  long long b[N > 0 ? N : 1] = {(long long)tuple_element_t<Is, K1>::value...};
  small_array<int, N> p{};
  for (int i = 0; i < N; ++i) p[i] = i;
  for (int i = 1; i < N; ++i) {
    for (int j = i; j > 0; --j) {
      int x = p[j - 1], y = p[j];
      bool gt = a[x] > a[y] || (a[x] == a[y] && b[x] > b[y]);
      if (!gt) break;
      p[j - 1] = y;
      p[j] = x;
    }
  }
  return p;
}

// Run-time insertion sort of indices by (k0[i], k1[i], i).
template <class T, int N>
BBX_HOST_DEVICE constexpr small_array<int, N> dynamic_sort_perm(small_array<T, N> const& a,
                                                               small_array<T, N> const& b) {
  small_array<int, N> p{};
  for (int i = 0; i < N; ++i) p[i] = i;
  for (int i = 1; i < N; ++i) {
    for (int j = i; j > 0; --j) {
      int x = p[j - 1], y = p[j];
      bool gt = a[x] > a[y] || (a[x] == a[y] && b[x] > b[y]);
      if (!gt) break;
      p[j - 1] = y;
      p[j] = x;
    }
  }
  return p;
}

}  // namespace bbx::detail
