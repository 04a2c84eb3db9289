// bbx/tensor/queries.hpp — compile-time facts the DSL reads off tensors and copy objects:
//
//   memspace_of(t)          the DSL's AddressSpace number of t's memory (gmem 1, smem 3, rmem 5)
//   leading_dim(t)          the mode whose stride is a static 1 (and whose extent is not a static
//                           1): Int<i>, a tuple of Ints for a nested mode, Int<-1> for none (the
//                           DSL's None)
//   dynamic_mask(x)         x's profile with 1 where a leaf is a run-time integer, 0 where static
//   copy_value_t<X>         the element type of a copy atom / tiled copy / thread slice
//   copy_op_t<X>            the op type it was made from
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/int_tuple.hpp"
#include "bbx/tensor/pointer.hpp"
#include "bbx/tensor/tensor.hpp"

namespace bbx {

template <class Tn>
  requires(is_tensor_v<Tn>)
BBX_HOST_DEVICE constexpr auto memspace_of(Tn const& t) {
  using It = std::remove_cvref_t<decltype(t.data())>;
  if constexpr (requires { It::space; }) {
    if constexpr (It::space == mem_space::smem) return Int<3>{};
    else if constexpr (It::space == mem_space::rmem) return Int<5>{};
    else return Int<1>{};
  } else {
    return Int<5>{};  // owned register storage (packed predicates)
  }
}

namespace detail {
// Among the children's results (each tuple<> = not found, or (path)), the first found, with
// its index prepended.
template <std::size_t I, class R>
BBX_HOST_DEVICE constexpr auto first_path(R const& r) {
  if constexpr (I == tuple_size_v<R>) {
    return tuple<>{};
  } else if constexpr (tuple_size_v<std::remove_cvref_t<decltype(get<I>(r))>> != 0) {
    return make_tuple(tuple_cat(make_tuple(Int<int(I)>{}), get<0>(get<I>(r))));
  } else {
    return first_path<I + 1>(r);
  }
}
// The first leaf position (a tuple of Int indices) whose stride is a static 1 and extent not a
// static 1; tuple<> if none.
template <class S, class D>
BBX_HOST_DEVICE constexpr auto leading_path(S const& s, D const& d) {
  if constexpr (is_tuple_v<D>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return first_path<0>(make_tuple(leading_path(get<Is>(s), get<Is>(d))...));
    }(std::make_index_sequence<tuple_size_v<D>>{});
  } else if constexpr (is_constant_v<1, D> && !is_constant_v<1, S>) {
    return make_tuple(tuple<>{});  // found: an empty path below this leaf
  } else {
    return tuple<>{};
  }
}
template <class T>
BBX_HOST_DEVICE constexpr auto dynamic_mask_leaf(T const&) {
  if constexpr (is_C_v<T>) return _0{};
  else return _1{};
}
}  // namespace detail

template <class Tn>
  requires(is_tensor_v<Tn>)
BBX_HOST_DEVICE constexpr auto leading_dim(Tn const& t) {
  auto found = detail::leading_path(t.shape(), t.stride());
  if constexpr (tuple_size_v<decltype(found)> == 0) {
    return Int<-1>{};
  } else {
    auto path = get<0>(found);
    if constexpr (tuple_size_v<decltype(path)> == 1) return get<0>(path);
    else return path;
  }
}

template <class X>
BBX_HOST_DEVICE constexpr auto dynamic_mask(X const& x) {
  if constexpr (is_tuple_v<X>) return transform(x, [](auto const& e) BBX_INLINE { return dynamic_mask(e); });
  else return detail::dynamic_mask_leaf(x);
}

template <class X>
using copy_value_t = typename std::remove_cvref_t<X>::value_type;
template <class X>
using copy_op_t = typename std::remove_cvref_t<X>::op_type;

}  // namespace bbx
