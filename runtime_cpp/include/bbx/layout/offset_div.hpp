// bbx/layout/offset_div.hpp — what the types say about an offset's divisibility.
//
//   detail::offset_div<Crd, S, D>()   a divisor of crd2idx(crd, S, D), from types alone (0: the
//                                     offset is exactly 0); slicing and partitioning use it to
//                                     keep a pointer's alignment fact (tensor/pointer.hpp)
//   multiple_of<D>{v}                 a run-time offset v known to be a multiple of D (D == 0: v
//                                     is 0). The offset of a composed layout carries it through
//                                     partitions and slices, so that copies through a swizzled
//                                     layout know which chunks the swizzle keeps contiguous
//                                     (algorithm/copy.hpp). It converts to int; sums with static
//                                     integers and other multiple_of keep the fact.
//   offset_divisibility_v<O>          D for multiple_of<D>, |v| for C<v> (0 for _0), 1 for int
#pragma once

#include <type_traits>
#include <utility>

#include "layout.hpp"

namespace bbx {

template <long long D>
struct multiple_of {
  static_assert(D >= 0, "multiple_of: the divisor must be non-negative");
  static constexpr long long divisor = D;
  int value;
  BBX_HOST_DEVICE constexpr operator int() const { return value; }

  template <class Sink>
  BBX_HOST_DEVICE constexpr void format_to(Sink const& sink) const {
    sink.put_int(value);
  }
};

template <class T> struct is_multiple_of : std::false_type {};
template <long long D> struct is_multiple_of<multiple_of<D>> : std::true_type {};
template <class T>
inline constexpr bool is_multiple_of_v = is_multiple_of<std::remove_cvref_t<T>>::value;

template <class O>
inline constexpr long long offset_divisibility_v = [] {
  using T = std::remove_cvref_t<O>;
  if constexpr (is_multiple_of_v<T>) return T::divisor;
  else if constexpr (is_C_v<T>) return T::value < 0 ? -(long long)T::value : (long long)T::value;
  else return 1LL;
}();

template <long long A, long long B>
BBX_HOST_DEVICE constexpr auto operator+(multiple_of<A> const& a, multiple_of<B> const& b) {
  return multiple_of<detail::gcd_ll(A, B)>{a.value + b.value};
}
template <long long A, auto v>
BBX_HOST_DEVICE constexpr auto operator+(multiple_of<A> const& a, C<v> const&) {
  return multiple_of<detail::gcd_ll(A, (long long)v)>{a.value + int(v)};
}
template <long long A, auto v>
BBX_HOST_DEVICE constexpr auto operator+(C<v> const&, multiple_of<A> const& a) {
  return multiple_of<detail::gcd_ll(A, (long long)v)>{a.value + int(v)};
}

// `off` known to be a multiple of Div (Div == 0: exactly 0): static integers stay static.
template <long long Div, class Off>
BBX_HOST_DEVICE constexpr auto with_divisibility(Off const& off) {
  if constexpr (is_C_v<Off> || is_multiple_of_v<Off>) {
    return off;
  } else {
    return multiple_of<Div>{static_cast<int>(off)};
  }
}

namespace detail {
template <class D>
BBX_HOST_DEVICE constexpr long long stride_gcd() {
  if constexpr (is_tuple_v<D>) {
    return []<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      long long g = 0;
      ((g = gcd_ll(g, stride_gcd<tuple_element_t<Is, D>>())), ...);
      return g;
    }(std::make_index_sequence<tuple_size_v<D>>{});
  } else if constexpr (is_C_v<D>) {
    return D::value < 0 ? -(long long)D::value : (long long)D::value;
  } else {
    return 1;
  }
}
template <class Crd, class S, class D>
BBX_HOST_DEVICE constexpr long long offset_div() {
  using Cr = std::remove_cvref_t<Crd>;
  if constexpr (is_underscore_v<Cr>) {
    return 0;
  } else if constexpr (is_tuple_v<Cr>) {
    return []<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      long long g = 0;
      ((g = gcd_ll(g, offset_div<tuple_element_t<Is, Cr>, tuple_element_t<Is, S>, tuple_element_t<Is, D>>())), ...);
      return g;
    }(std::make_index_sequence<tuple_size_v<Cr>>{});
  } else if constexpr (is_tuple_v<S>) {
    if constexpr (is_constant_v<0, Cr>) {
      return 0;
    } else if constexpr (is_C_v<Cr> && is_static_v<S>) {
      using Hier = decltype(idx2crd(Cr{}, S{}));
      return offset_div<Hier, S, D>();
    } else {
      return stride_gcd<D>();
    }
  } else if constexpr (is_C_v<Cr>) {
    constexpr long long v = Cr::value < 0 ? -(long long)Cr::value : (long long)Cr::value;
    if constexpr (v == 0) return 0;
    else if constexpr (is_C_v<D>) return v * (D::value < 0 ? -(long long)D::value : (long long)D::value);
    else return v;
  } else {
    if constexpr (is_C_v<D>) return D::value < 0 ? -(long long)D::value : (long long)D::value;
    else return 1;
  }
}
}  // namespace detail

}  // namespace bbx
