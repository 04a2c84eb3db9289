// bbx/tensor/dsl_array.hpp — `cutlass.Array`: a typed memory handle (an element pointer, a shape
// and row-major strides) with the DSL's access rules:
//
//   a(i)                    the element i places after the base, whatever the rank (`arr[i]`)
//   a(i, j, ...)            the element at that coordinate through the strides (`arr[i, j]`)
//   a.load(idx) / a.load<N>(idx)          the element at linear idx / N elements from there
//                                         (Value<T, N>); array_load<N>(a, idx) the same
//   a.store(v, idx)         a scalar, or a Value<T, N> from linear idx on
//   a.subview(idx)          the same handle starting idx elements later
//   a.data_ptr(idx)         the pointer to element idx
//   a.shape(), a.stride(), a.size(), a.iterator()
//
//   make_array(ptr, shape)                 a view of memory (row-major strides)
//   make_array(ptr, shape, stride)         with explicit strides (a tensor's view)
//   make_rmem_array<T>(shape)              owned register storage (the DSL's default space)
// Shape is an int tuple (or an integer); indices may be run-time values.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/layout/int_tuple.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/tensor/pointer.hpp"
#include "bbx/tensor/tensor.hpp"
#include "bbx/tensor/value.hpp"

namespace bbx {

template <class Engine, class Shape, class Stride>
struct Array {
  using element_type = typename Engine::element_type;
  using value_type = typename Engine::value_type;

  Engine engine_;
  [[no_unique_address]] Shape shape_;
  [[no_unique_address]] Stride stride_;

  BBX_HOST_DEVICE constexpr auto iterator() const { return engine_.begin(); }
  BBX_HOST_DEVICE constexpr auto iterator() { return engine_.begin(); }
  BBX_HOST_DEVICE constexpr auto data() const { return engine_.begin(); }
  BBX_HOST_DEVICE constexpr auto data() { return engine_.begin(); }
  BBX_HOST_DEVICE constexpr Shape const& shape() const { return shape_; }
  BBX_HOST_DEVICE constexpr Stride const& stride() const { return stride_; }
  BBX_HOST_DEVICE constexpr auto size() const { return product(shape_); }

  template <class I>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(I const& i) const { return data()[i]; }
  template <class I>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(I const& i) { return data()[i]; }
  template <class I0, class I1, class... Is>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(I0 const& i0, I1 const& i1, Is const&... is) const {
    return data()[inner_product(make_tuple(i0, i1, is...), wrap(stride_))];
  }
  template <class I0, class I1, class... Is>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(I0 const& i0, I1 const& i1, Is const&... is) {
    return data()[inner_product(make_tuple(i0, i1, is...), wrap(stride_))];
  }
  template <class I>
  BBX_HOST_DEVICE constexpr decltype(auto) operator[](I const& i) const { return data()[i]; }
  template <class I>
  BBX_HOST_DEVICE constexpr decltype(auto) operator[](I const& i) { return data()[i]; }

  template <int N = 0, class I = Int<0>>
  BBX_HOST_DEVICE auto load(I const& idx = {}) const {
    if constexpr (N == 0) {
      return value_type(data()[idx]);
    } else {
      Value<value_type, N> r;
      BBX_UNROLL
      for (int k = 0; k < N; ++k) r[k] = data()[idx + k];
      return r;
    }
  }
  template <class V, class I = Int<0>>
  BBX_HOST_DEVICE void store(V const& v, I const& idx = {}) {
    if constexpr (is_value_v<V>) {
      BBX_UNROLL
      for (int k = 0; k < V::size_v; ++k) data()[idx + k] = ::bbx::to<value_type>(v[k]);
    } else {
      data()[idx] = ::bbx::to<value_type>(v);
    }
  }
  template <class I = Int<0>>
  BBX_HOST_DEVICE auto data_ptr(I const& idx = {}) const { return data() + idx; }
  template <class I = Int<0>>
  BBX_HOST_DEVICE auto subview(I const& idx = {}) const;
};

template <class X> struct is_dsl_array : std::false_type {};
template <class E, class S, class D> struct is_dsl_array<Array<E, S, D>> : std::true_type {};
template <class X> inline constexpr bool is_dsl_array_v = is_dsl_array<std::remove_cvref_t<X>>::value;

template <class Ptr, class Shape, class Stride>
BBX_HOST_DEVICE constexpr auto make_array(Ptr const& p, Shape const& shape, Stride const& stride) {
  return Array<ViewEngine<Ptr>, Shape, Stride>{ViewEngine<Ptr>{p}, shape, stride};
}
template <class Ptr, class Shape>
BBX_HOST_DEVICE constexpr auto make_array(Ptr const& p, Shape const& shape) {
  return make_array(p, shape, compact_row_major(shape));
}
// `cutlass.make_array_view(tensor)`: the tensor's memory, shape and strides.
template <class Tn>
  requires(is_tensor_v<Tn>)
BBX_HOST_DEVICE constexpr auto make_array_view(Tn const& t) {
  return make_array(t.data(), t.shape(), t.stride());
}
template <class T, class Shape>
BBX_HOST_DEVICE constexpr auto make_rmem_array(Shape const& shape) {
  static_assert(is_static_v<Shape>, "cutlass.Array in registers: the shape must be static");
  constexpr int N = int(decltype(product(shape))::value);
  using D = std::remove_cvref_t<decltype(compact_row_major(shape))>;
  return Array<ArrayEngine<T, N>, Shape, D>{{}, shape, D{}};
}

// The DSL's Array accesses, on a cutlass.Array or on a tensor passed where the DSL takes one (a
// linear view of its memory: element i is i elements after the base, whatever the layout).
template <class A>
BBX_HOST_DEVICE constexpr decltype(auto) as_dsl_array(A&& a) {
  if constexpr (is_dsl_array_v<A>) {
    return std::forward<A>(a);
  } else {
    static_assert(is_tensor_v<std::remove_cvref_t<A>>, "a cutlass.Array access on something else");
    return make_array_view(a);
  }
}

// array_load<N>(a, idx): the element at idx (N == 0), or N elements from there (a Value<T, N>).
template <int N = 0, class A, class I = Int<0>>
BBX_HOST_DEVICE auto array_load(A const& a, I const& idx = {}) {
  return as_dsl_array(a).template load<N>(idx);
}
// array_store<N>(a, v, idx): an element, or a Value<T, N> from idx on (N == 0: v's own size).
template <int N = 0, class A, class V, class I = Int<0>>
BBX_HOST_DEVICE void array_store(A&& a, V const& v, I const& idx = {}) {
  if constexpr (N != 0) {
    static_assert(is_value_v<V> && V::size_v == N, "a[start:count] = v: v must have count elements");
  }
  auto&& view = as_dsl_array(a);
  view.store(v, idx);
}
// array_masked_load<N>(a, idx, mask[, fill]): element k of N from idx where mask[k] holds (the
// others are `fill`, default zero, and not read).
template <int N, class A, class I, class M, class F = Int<0>>
BBX_HOST_DEVICE auto array_masked_load(A const& a, I const& idx, M const& mask, F const& fill = {}) {
  auto const& view = as_dsl_array(a);
  using T = typename std::remove_cvref_t<decltype(view)>::value_type;
  Value<T, N> r;
  BBX_UNROLL
  for (int k = 0; k < N; ++k) r[k] = bool(mask[k]) ? T(view.data()[idx + k]) : ::bbx::to<T>(fill);
  return r;
}
// array_masked_store(a, idx, v, mask): the elements of v where mask[k] holds.
template <class A, class I, class V, class M>
BBX_HOST_DEVICE void array_masked_store(A&& a, I const& idx, V const& v, M const& mask) {
  auto&& view = as_dsl_array(a);
  using T = typename std::remove_cvref_t<decltype(view)>::value_type;
  BBX_UNROLL
  for (int k = 0; k < V::size_v; ++k) {
    if (bool(mask[k])) view.data()[idx + k] = ::bbx::to<T>(v[k]);
  }
}

template <class Engine, class Shape, class Stride>
template <class I>
BBX_HOST_DEVICE auto Array<Engine, Shape, Stride>::subview(I const& idx) const {
  return make_array(data() + idx, shape_, stride_);
}

}  // namespace bbx
