// bbx/tensor/value_ops.hpp — the DSL's TensorSSA / cutlass.Vector operations beyond arithmetic:
//
//   from_elements<T>(x0, x1, ...)   Value<T, N> of the given scalars
//   to_elements(v)                  tuple of v's elements
//   bitcast<U>(v)                   v's bits as U elements (N * bits(T) / bits(U) of them); a
//                                   scalar: the same bits as one U
//   reshape(v, shape)               v (register values are flat here; the sizes must agree)
//   apply_op(v, op, w[, flip])      op(v, w) elementwise (op(w, v) when flip)
//   with_signedness<Signed>(v)      the integer elements reinterpreted as signed / unsigned
//   broadcast_to[<T>](x, shape)     x (a scalar or a value) repeated to the static shape `shape`
//   outerproduct(a, b[, acc])       the (M, K) value a[i] * b[j] (+ acc(i, j)) of 1-D a, b
//
// bitcast's result is 1-D (a flat value), as the DSL's; the others keep or make a row-major
// shape (vshape, value.hpp).
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

template <class T, int N, class VS>
BBX_HOST_DEVICE auto to_elements(Value<T, N, VS> const& v) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
    return make_tuple(T(v[int(Is)])...);
  }(std::make_index_sequence<std::size_t(N)>{});
}

template <class U, class T, int N, class VS>
BBX_HOST_DEVICE auto bitcast(Value<T, N, VS> const& v) {
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

template <class T, int N, class VS, class Shape>
BBX_HOST_DEVICE Value<T, N, VS> const& reshape(Value<T, N, VS> const& v, Shape const& shape) {
  static_assert(int(decltype(size(shape))::value) == N, "reshape: the new shape has another size");
  return v;
}

template <bool Flip = false, class V, class Op, class W>
BBX_HOST_DEVICE auto apply_op(V const& v, Op op, W const& w) {
  return math::detail::lift(
      [op](auto a, auto b) BBX_INLINE {
        using T = decltype(a);
        const T bb = ::bbx::to<T>(b);
        if constexpr (Flip) return T(op(bb, a));
        else return T(op(a, bb));
      },
      v, w);
}

template <bool Signed, class T, int N, class VS>
BBX_HOST_DEVICE auto with_signedness(Value<T, N, VS> const& v) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "with_signedness: integer elements");
  using U = std::conditional_t<Signed, std::make_signed_t<T>, std::make_unsigned_t<T>>;
  return detail::value_map(v, [](T x) BBX_INLINE { return U(x); });  // same width: the same bits
}

namespace detail {
// The vshape of a static shape: an integer or a flat tuple of static integers.
template <class Shape>
struct as_vshape {
  static_assert(is_C_v<Shape>, "broadcast_to: the target shape must be static Python ints "
                               "(an int or a flat tuple of ints)");
  using type = vshape<int(Shape::value)>;
};
template <class... Ds>
struct as_vshape<tuple<Ds...>> {
  static_assert((is_C_v<Ds> && ...), "broadcast_to: the target shape must be static Python ints "
                                     "(an int or a flat tuple of ints)");
  using type = vshape<int(Ds::value)...>;
};
// MLIR's vector.broadcast rule: the source's modes, aligned at the right of the target's, are 1
// or equal to the target's; the source's rank is at most the target's.
template <class Src, class Dst, std::size_t... K>
constexpr bool broadcastable(std::index_sequence<K...>) {
  constexpr int lead = Dst::rank - Src::rank;
  return ((Src::extent[K] == 1 || Src::extent[K] == Dst::extent[lead + int(K)]) && ...);
}
}  // namespace detail

template <class T = void, class X, class Shape>
BBX_HOST_DEVICE auto broadcast_to(X const& x, Shape const&) {
  using D = typename detail::as_vshape<Shape>::type;
  if constexpr (is_value_v<X>) {
    using E = typename X::value_type;
    using S = typename X::shape_type;
    static_assert(S::rank <= D::rank,
                  "broadcast_to: the source vector has more dimensions than the target shape");
    static_assert(detail::broadcastable<S, D>(std::make_index_sequence<std::size_t(S::rank)>{}),
                  "broadcast_to: each dimension of the source (aligned at the right) must be 1 or "
                  "equal to the target's (MLIR vector.broadcast)");
    Value<E, D::size, D> r;
    BBX_UNROLL
    for (int i = 0; i < D::size; ++i) {
      int rest = i, src = 0, stride = 1;
      for (int d = D::rank - 1, s = S::rank - 1; s >= 0; --d, --s) {
        const int c = rest % D::dim(d);
        rest /= D::dim(d);
        src += (S::dim(s) == 1 ? 0 : c) * stride;
        stride *= S::dim(s);
      }
      r[i] = x[src];
    }
    return r;
  } else {
    using E = std::conditional_t<std::is_void_v<T>, decltype(math::detail::at(x, 0)), T>;
    Value<E, D::size, D> r;
    const E e = ::bbx::to<E>(math::detail::at(x, 0));
    BBX_UNROLL
    for (int i = 0; i < D::size; ++i) r[i] = e;
    return r;
  }
}

// outerproduct(a, b[, acc]): MLIR's vector.outerproduct of 1-D a (M) and b (K) -> (M, K), of a's
// element type (b's and acc's must be the same); with acc, acc + a[i] * b[j] fused (vector.fma)
// for floats.
template <class T, int M, class VA, class U, int K, class VB, class... Acc>
BBX_HOST_DEVICE auto outerproduct(Value<T, M, VA> const& a, Value<U, K, VB> const& b,
                                  Acc const&... acc) {
  static_assert(sizeof...(Acc) <= 1, "outerproduct(a, b[, acc])");
  static_assert(VA::rank == 1, "outerproduct: 'a' must be 1-D");
  static_assert(VB::rank == 1, "outerproduct: 'b' must be 1-D");
  if constexpr (sizeof...(Acc) == 0) {
    static_assert(std::is_same_v<T, U>, "outerproduct: 'a' and 'b' must have the same element type");
  } else {
    static_assert((std::is_same_v<T, U> && ... && std::is_same_v<T, typename Acc::value_type>),
                  "outerproduct: 'a', 'b' and 'acc' must have the same element type");
    static_assert((std::is_same_v<typename Acc::shape_type, vshape<M, K>> && ...),
                  "outerproduct: 'acc' must have the result's shape (len(a), len(b))");
  }
  Value<T, M * K, vshape<M, K>> r;  // (M, K) -> a[i] * b[j] (+ acc(i, j))
  BBX_UNROLL
  for (int i = 0; i < M; ++i) {
    BBX_UNROLL
    for (int j = 0; j < K; ++j) {
      if constexpr (sizeof...(Acc) == 0) {
        r[i * K + j] = T(a[i] * b[j]);
      } else if constexpr (is_floating_v<T>) {
        r[i * K + j] = (::bbx::scalar::fma(T(a[i]), T(b[j]), T(acc[i * K + j])), ...);
      } else {
        r[i * K + j] = (T(acc[i * K + j] + a[i] * b[j]), ...);
      }
    }
  }
  return r;
}

}  // namespace bbx
