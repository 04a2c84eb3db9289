// bbx/tensor/value_ops.hpp — the DSL's TensorSSA / cutlass.Vector operations beyond arithmetic:
//
//   from_elements<T>(x0, x1, ...)   Value<T, N> of the given scalars
//   to_elements(v)                  tuple of v's elements
//   bitcast<U>(v)                   v's bits as U elements (N * bits(T) / bits(U) of them); a
//                                   scalar: the same bits as one U
//   reshape(v, shape)               v (register values are flat here; the sizes must agree)
//   apply_op(v, op, w[, flip])      op(v, w) elementwise (op(w, v) when flip)
//   with_signedness<Signed>(v)      the integer elements reinterpreted as signed / unsigned
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/tuple.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/tensor/value.hpp"
#include "bbx/tensor/value_math.hpp"

namespace bbx {

template <class T, class... X>
BBX_HOST_DEVICE Value<T, int(sizeof...(X))> from_elements(X const&... xs) {
  Value<T, int(sizeof...(X))> r;
  int i = 0;
  ((r[i++] = ::bbx::to<T>(math::detail::at(xs, 0))), ...);
  return r;
}

template <class T, int N>
BBX_HOST_DEVICE auto to_elements(Value<T, N> const& v) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(T(v[int(Is)])...);
  }(std::make_index_sequence<std::size_t(N)>{});
}

template <class U, class T, int N>
BBX_HOST_DEVICE auto bitcast(Value<T, N> const& v) {
  static_assert(!std::is_same_v<T, bool> && !std::is_same_v<U, bool>,
                "bitcast: Boolean values are packed bits; convert with .to() instead");
  constexpr int bytes = N * int(sizeof(T));
  static_assert(bytes % int(sizeof(U)) == 0, "bitcast: the total width is not a multiple of the new element's");
  Value<U, bytes / int(sizeof(U))> r;
  __builtin_memcpy(static_cast<void*>(&r.v[0]), static_cast<const void*>(&v.v[0]), bytes);
  return r;
}
template <class U, class T>
  requires(is_numeric_v<T>)
BBX_HOST_DEVICE U bitcast(T const& x) {
  static_assert(sizeof(U) == sizeof(T), "bitcast: a scalar keeps its width");
  U r;
  __builtin_memcpy(static_cast<void*>(&r), static_cast<const void*>(&x), sizeof(U));
  return r;
}

template <class T, int N, class Shape>
BBX_HOST_DEVICE Value<T, N> const& reshape(Value<T, N> const& v, Shape const& shape) {
  static_assert(int(decltype(size(shape))::value) == N, "reshape: the new shape has another size");
  return v;
}

template <bool Flip = false, class V, class Op, class W>
BBX_HOST_DEVICE auto apply_op(V const& v, Op op, W const& w) {
  return math::detail::lift(
      [op](auto a, auto b) {
        using T = decltype(a);
        const T bb = ::bbx::to<T>(b);
        if constexpr (Flip) return T(op(bb, a));
        else return T(op(a, bb));
      },
      v, w);
}

template <bool Signed, class T, int N>
BBX_HOST_DEVICE auto with_signedness(Value<T, N> const& v) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "with_signedness: integer elements");
  using U = std::conditional_t<Signed, std::make_signed_t<T>, std::make_unsigned_t<T>>;
  return bitcast<U>(v);
}

}  // namespace bbx
