// bbx/tensor/tensor.hpp — Tensor<Engine, Layout>: an iterator (or owned register array) and a
// layout. Mirrors CuTe's tensor: element access `t(coord)` / `t[i]`, slicing with `_`,
// `local_tile`, `local_partition`, `make_fragment_like`, `make_rmem_tensor`, `make_identity_tensor`,
// `load()` / `store(v)` for register values.
//
// Alignment: slicing/tiling a gmem/smem tensor computes, from types alone, a divisor of the
// element offset it adds to the pointer (`detail::offset_div`) and keeps the pointer's static
// alignment fact accordingly (see pointer.hpp).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "bbx/config.hpp"
#include "bbx/layout/layout.hpp"
#include "bbx/layout/composition.hpp"
#include "bbx/layout/divide.hpp"
#include "bbx/layout/composed_layout.hpp"
#include "bbx/layout/offset_div.hpp"
#include "bbx/layout/recast.hpp"
#include "bbx/numeric.hpp"
#include "bbx/tensor/bit_pointer.hpp"
#include "bbx/tensor/pointer.hpp"
#include "bbx/tensor/arith_tuple.hpp"
#include "bbx/tensor/value.hpp"

namespace bbx {

// ---- engines --------------------------------------------------------------------------------
template <class Iter>
struct ViewEngine {
  using iterator = Iter;
  using value_type = typename Iter::value_type;
  using element_type = typename Iter::element_type;
  Iter iter_;
  BBX_HOST_DEVICE constexpr Iter begin() const { return iter_; }
};

// Owning register storage of N elements (N static).
template <class T, int N>
struct ArrayEngine {
  using value_type = T;
  using element_type = T;
  using iterator = rmem_ptr<T>;
  T data_[N];
  BBX_HOST_DEVICE constexpr rmem_ptr<T> begin() { return rmem_ptr<T>(data_); }
  BBX_HOST_DEVICE constexpr rmem_ptr<T const> begin() const { return rmem_ptr<T const>(data_); }
};

// Booleans (predicate tensors) are packed 32 to a register word; see bit_pointer.hpp.
template <int N>
struct ArrayEngine<bool, N> {
  using value_type = bool;
  using element_type = bool;
  using iterator = bit_ptr<false>;
  using words_type = unsigned[(N + 31) / 32];
  words_type words_ = {};
  BBX_HOST_DEVICE constexpr bit_ptr<false> begin() { return bit_ptr<false>{words_, 0}; }
  BBX_HOST_DEVICE constexpr bit_ptr<true> begin() const { return bit_ptr<true>{words_, 0}; }
};

template <class E> struct is_array_engine : std::false_type {};
template <class T, int N> struct is_array_engine<ArrayEngine<T, N>> : std::true_type {};

template <class L>
inline constexpr bool is_any_layout_v = is_layout_v<L> || is_composed_layout_v<L>;

template <class Engine, class Layout>
struct Tensor;

template <class T> struct is_tensor : std::false_type {};
template <class E, class L> struct is_tensor<Tensor<E, L>> : std::true_type {};
template <class T> inline constexpr bool is_tensor_v = is_tensor<std::remove_cvref_t<T>>::value;

template <class Iter, class Layout>
BBX_HOST_DEVICE constexpr auto make_tensor(Iter const& it, Layout const& l)
  requires(is_any_layout_v<Layout> && !std::is_pointer_v<Iter>);

namespace detail {
// iterator + offset, keeping what is statically known about alignment.
template <long long Div, class Iter, class Off>
BBX_HOST_DEVICE constexpr auto iter_add(Iter const& it, Off const& off) {
  if constexpr (is_mem_ptr_v<Iter>) {
    if constexpr (is_C_v<Off>) return it + off;
    else return it.template add_with_divisibility<Div>(off);
  } else {
    return it + off;
  }
}
template <class Crd, class L>
BBX_HOST_DEVICE constexpr long long layout_offset_div() {
  if constexpr (is_layout_v<L>) {
    return offset_div<Crd, typename L::shape_type, typename L::stride_type>();
  } else {
    return 0;  // composed layouts keep the offset inside the layout (pointer unchanged)
  }
}

// A sub-layout of `l` described on its (inner) layout: for a plain layout, (sub, offset) and the
// pointer moves; for a composed layout, the offset is folded into the layout, with what the types
// say about its divisibility (Div, as offset_div gives it; offset_div.hpp).
template <long long Div, class L, class Sub, class Off>
BBX_HOST_DEVICE constexpr auto rebase(L const& l, Sub const& sub, Off const& off) {
  if constexpr (is_composed_layout_v<L>) {
    return make_tuple(make_composed_layout(l.layout_a(), l.offset() + with_divisibility<Div>(off), sub), _0{});
  } else {
    return make_tuple(sub, off);
  }
}
template <class L>
BBX_HOST_DEVICE constexpr auto inner_layout(L const& l) {
  if constexpr (is_composed_layout_v<L>) return l.layout_b();
  else return l;
}

// Top-level modes of a layout as a tuple of layouts (a non-tuple shape is one mode).
template <class L>
BBX_HOST_DEVICE constexpr auto top_modes(L const& l) {
  if constexpr (is_tuple_v<typename L::shape_type>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_tuple(layout<int(Is)>(l)...);
    }(std::make_index_sequence<tuple_size_v<typename L::shape_type>>{});
  } else {
    return make_tuple(l);
  }
}
// Concatenate the top-level modes of several layouts into one layout.
template <class... Ls>
BBX_HOST_DEVICE constexpr auto concat_modes(Ls const&... ls) {
  return make_layout_from_tuple(tuple_cat(top_modes(ls)...));
}
// A coordinate of rank R: a tuple padded with `_` (or an integer, kept as is).
template <int R, class Crd>
BBX_HOST_DEVICE constexpr auto pad_coord(Crd const& c) {
  if constexpr (is_tuple_v<Crd>) {
    constexpr int N = int(tuple_size_v<Crd>);
    static_assert(N <= R, "coordinate has a larger rank than the tiled modes");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_tuple([&]<std::size_t I>(std::integral_constant<std::size_t, I>) BBX_INLINE {
        if constexpr (int(I) < N) return get<I>(c);
        else return Underscore{};
      }(std::integral_constant<std::size_t, Is>{})...);
    }(std::make_index_sequence<std::size_t(R)>{});
  } else {
    return c;
  }
}
template <class L>
inline constexpr int top_rank_v = is_tuple_v<typename L::shape_type> ? int(tuple_size_v<typename L::shape_type>) : 1;

// Slice layout `l` (plain) with a flat coordinate (elements: integer or `_`); returns the kept
// modes (may be empty) and the offset. Coordinates that are integers address whole modes.
template <class Crd, class L>
BBX_HOST_DEVICE constexpr auto slice_modes(Crd const& c, L const& l) {
  auto off = crd2idx(zero_underscores(c), l.shape(), l.stride());
  if constexpr (has_underscore_v<Crd>) {
    return make_tuple(slice(c, l), off);
  } else {
    return make_tuple(tuple<>{}, off);
  }
}

template <class T>
BBX_HOST_DEVICE constexpr auto abs_leaf(T const& t) {
  if constexpr (is_tuple_v<T>) return transform(t, [](auto const& e) BBX_INLINE { return abs_leaf(e); });
  else if constexpr (is_C_v<T>) return C<(T::value < 0 ? -T::value : T::value)>{};
  else return t;
}
// Compact layout of a static shape whose modes are ordered like the static strides `D`
// (smallest |stride| fastest; ties keep the left mode first), keeping the shape's profile.
template <class S>
constexpr int leaf_count() {
  if constexpr (is_tuple_v<S>) {
    return []<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return (0 + ... + leaf_count<tuple_element_t<Is, S>>());
    }(std::make_index_sequence<tuple_size_v<S>>{});
  } else {
    return 1;
  }
}
// number of leaves in the modes of S before mode I
template <class S, std::size_t I>
constexpr int leaves_before() {
  return []<std::size_t... Ks>(std::index_sequence<Ks...>) BBX_INLINE {
    return (0 + ... + leaf_count<tuple_element_t<Ks, S>>());
  }(std::make_index_sequence<I>{});
}
struct OrderInfo {
  int n = 0;
  long long shape[32] = {};
  long long key[32] = {};
  long long out[32] = {};
};
template <class S, class D>
constexpr void order_leaves(OrderInfo& r) {
  if constexpr (is_tuple_v<S>) {
    [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      (order_leaves<tuple_element_t<Is, S>, tuple_element_t<Is, D>>(r), ...);
    }(std::make_index_sequence<tuple_size_v<S>>{});
  } else {
    r.shape[r.n] = S::value;
    r.key[r.n] = D::value < 0 ? -(long long)D::value : (long long)D::value;
    ++r.n;
  }
}
template <class S, class D>
constexpr OrderInfo order_info() {
  OrderInfo r;
  order_leaves<S, D>(r);
  for (int i = 0; i < r.n; ++i) {
    long long prod = 1;
    for (int j = 0; j < r.n; ++j)
      if (r.key[j] < r.key[i] || (r.key[j] == r.key[i] && j < i)) prod *= r.shape[j];
    r.out[i] = prod;
  }
  return r;
}
template <class S, int First, class D0, class D>
BBX_HOST_DEVICE constexpr auto ordered_strides() {
  if constexpr (is_tuple_v<S>) {
    return []<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_tuple(ordered_strides<tuple_element_t<Is, S>, First + leaves_before<S, Is>(), D0, D>()...);
    }(std::make_index_sequence<tuple_size_v<S>>{});
  } else {
    constexpr OrderInfo info = order_info<D0, D>();
    return Int<int(info.out[First])>{};
  }
}
template <class S, class D>
BBX_HOST_DEVICE constexpr auto ordered_compact_layout() {
  static_assert(leaf_count<S>() <= 32, "make_fragment_like: too many modes");
  return make_layout(S{}, ordered_strides<S, 0, S, D>());
}

template <class L>
BBX_HOST_DEVICE constexpr auto fragment_layout(L const& l) {
  using S = std::remove_cvref_t<decltype(shape(l))>;
  static_assert(is_static_v<S>, "make_fragment_like: the shape must be static");
  if constexpr (is_layout_v<L> && is_static_v<typename L::stride_type>) {
    // same stride order as the source (so a contiguous source gives a contiguous fragment)
    return ordered_compact_layout<S, typename L::stride_type>();
  } else {
    return make_layout(S{});
  }
}
}  // namespace detail

// ---- Tensor ---------------------------------------------------------------------------------
template <class Engine, class Layout>
struct Tensor {
  using engine_type = Engine;
  using layout_type = Layout;
  using value_type = typename Engine::value_type;
  using element_type = typename Engine::element_type;

  Engine engine_;
  [[no_unique_address]] Layout layout_;

  BBX_HOST_DEVICE constexpr auto data() const { return engine_.begin(); }
  // The DSL's `tensor.iterator`: the pointer (or counting iterator) at the first element.
  BBX_HOST_DEVICE constexpr auto iterator() const { return engine_.begin(); }
  BBX_HOST_DEVICE constexpr auto data() { return engine_.begin(); }
  // a register fragment's iterator writes its elements (a view made of it, as in the DSL)
  BBX_HOST_DEVICE constexpr auto iterator() { return engine_.begin(); }
  BBX_HOST_DEVICE constexpr Layout const& layout() const { return layout_; }
  BBX_HOST_DEVICE constexpr decltype(auto) shape() const { return layout_.shape(); }
  BBX_HOST_DEVICE constexpr decltype(auto) stride() const { return inner_layout_().stride(); }
  BBX_HOST_DEVICE constexpr auto size() const { return ::bbx::size(layout_); }
  static constexpr int rank = detail::top_rank_v<decltype(detail::inner_layout(std::declval<Layout>()))>;

  // t(coord) / t(c0, c1, ...): an element (reference, or a coordinate for identity tensors), or a
  // sliced view when the coordinate contains `_`. On the simulator, with up to three
  // coordinates, the call also notes its source line for the checker's reports (BBX_ACCESS_SITE).
  template <class Crd>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(Crd const& c BBX_ACCESS_SITE) const {
    BBX_NOTE_ACCESS_SITE(data());
    return access(*this, c);
  }
  template <class Crd>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(Crd const& c BBX_ACCESS_SITE) {
    BBX_NOTE_ACCESS_SITE(data());
    return access(*this, c);
  }
  template <class C0, class C1>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1 BBX_ACCESS_SITE) const {
    BBX_NOTE_ACCESS_SITE(data());
    return access(*this, make_coord(c0, c1));
  }
  template <class C0, class C1>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1 BBX_ACCESS_SITE) {
    BBX_NOTE_ACCESS_SITE(data());
    return access(*this, make_coord(c0, c1));
  }
  template <class C0, class C1, class C2>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, C2 const& c2 BBX_ACCESS_SITE) const {
    BBX_NOTE_ACCESS_SITE(data());
    return access(*this, make_coord(c0, c1, c2));
  }
  template <class C0, class C1, class C2>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, C2 const& c2 BBX_ACCESS_SITE) {
    BBX_NOTE_ACCESS_SITE(data());
    return access(*this, make_coord(c0, c1, c2));
  }
  template <class C0, class C1, class C2, class C3, class... Cs>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, C2 const& c2, C3 const& c3,
                                                      Cs const&... cs) const {
    return access(*this, make_coord(c0, c1, c2, c3, cs...));
  }
  template <class C0, class C1, class C2, class C3, class... Cs>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, C2 const& c2, C3 const& c3,
                                                      Cs const&... cs) {
    return access(*this, make_coord(c0, c1, c2, c3, cs...));
  }
  template <class Crd>
  BBX_HOST_DEVICE constexpr decltype(auto) operator[](Crd const& c) const {
    return access(*this, c);
  }
  template <class Crd>
  BBX_HOST_DEVICE constexpr decltype(auto) operator[](Crd const& c) {
    return access(*this, c);
  }

  // Register values: the whole (statically sized) tensor as a Value, in 1-D coordinate order.
  BBX_HOST_DEVICE auto load() const {
    using N = decltype(::bbx::size(layout_));
    static_assert(is_C_v<N>, "Tensor::load: the tensor's size must be static");
    Value<std::remove_cv_t<value_type>, int(N::value)> v;
    auto it = data();
    BBX_UNROLL
    for (int i = 0; i < int(N::value); ++i) v.v[i] = load_elem(it, layout_(i));
    return v;
  }
  template <class T, int N, class VS>
  BBX_HOST_DEVICE void store(Value<T, N, VS> const& v) const { store_impl(*this, v); }
  template <class T, int N, class VS>
  BBX_HOST_DEVICE void store(Value<T, N, VS> const& v) { store_impl(*this, v); }
  // DSL spelling `t.fill(x)`.
  template <class S>
  BBX_HOST_DEVICE void fill(S const& x) const { fill_impl(*this, x); }
  template <class S>
  BBX_HOST_DEVICE void fill(S const& x) { fill_impl(*this, x); }

  // explicit element moves (exact read/write reporting to the simulator's checker)
  template <class It, class Off>
  BBX_HOST_DEVICE static auto load_elem(It const& it, Off const& off) {
    if constexpr (is_mem_ptr_v<It>) return (it + off).load();
    else return it[off];
  }
  template <class It, class Off, class V>
  BBX_HOST_DEVICE static void store_elem(It const& it, Off const& off, V const& v) {
    (it + off).store(v);
  }

 private:
  template <class Self, class T, int N, class VS>
  BBX_HOST_DEVICE static void store_impl(Self& self, Value<T, N, VS> const& v) {
    using Sz = decltype(::bbx::size(self.layout_));
    static_assert(is_C_v<Sz> && Sz::value == N, "Tensor::store: value and tensor sizes differ");
    auto it = self.data();
    BBX_UNROLL
    for (int i = 0; i < N; ++i) store_elem(it, self.layout_(i), ::bbx::to<std::remove_cv_t<value_type>>(v.v[i]));
  }
  template <class Self, class S>
  BBX_HOST_DEVICE static void fill_impl(Self& self, S const& x) {
    const auto xv = ::bbx::to<std::remove_cv_t<value_type>>(x);
    auto it = self.data();
    using Sz = decltype(::bbx::size(self.layout_));
    if constexpr (is_C_v<Sz>) {
      BBX_UNROLL
      for (int i = 0; i < int(Sz::value); ++i) store_elem(it, self.layout_(i), xv);
    } else {
      for (int i = 0; i < int(::bbx::size(self.layout_)); ++i) store_elem(it, self.layout_(i), xv);
    }
  }
  BBX_HOST_DEVICE constexpr decltype(auto) inner_layout_() const {
    if constexpr (is_composed_layout_v<Layout>) return layout_.layout_b();
    else return (layout_);
  }
  template <class Self, class Crd>
  BBX_HOST_DEVICE static constexpr decltype(auto) access(Self& self, Crd const& c) {
    if constexpr (has_underscore_v<Crd>) {
      auto so = slice_and_offset(c, self.layout_);
      constexpr long long Div = detail::layout_offset_div<decltype(detail::zero_underscores(c)), Layout>();
      return make_tensor(detail::iter_add<Div>(self.data(), get<1>(so)), get<0>(so));
    } else {
      return self.data()[self.layout_(c)];
    }
  }
};

// ---- construction ---------------------------------------------------------------------------
template <class Iter, class Layout>
BBX_HOST_DEVICE constexpr auto make_tensor(Iter const& it, Layout const& l)
  requires(is_any_layout_v<Layout> && !std::is_pointer_v<Iter>)
{
  return Tensor<ViewEngine<Iter>, Layout>{ViewEngine<Iter>{it}, l};
}
// A raw pointer is taken as global memory.
template <class T, class Layout>
  requires(is_any_layout_v<Layout>)
BBX_HOST_DEVICE constexpr auto make_tensor(T* p, Layout const& l) {
  return make_tensor(make_gmem_ptr(p), l);
}
template <class Iter, class Shape>
  requires(!is_any_layout_v<Shape>)
BBX_HOST_DEVICE constexpr auto make_tensor(Iter const& it, Shape const& s) {
  return make_tensor(it, make_layout(s));
}
template <class Iter, class Shape, class Stride>
BBX_HOST_DEVICE constexpr auto make_tensor(Iter const& it, Shape const& s, Stride const& d) {
  return make_tensor(it, make_layout(s, d));
}
// Owning register tensor of element T with a static layout (or a static shape: column-major).
template <class T, class LayoutOrShape>
BBX_HOST_DEVICE constexpr auto make_rmem_tensor(LayoutOrShape const& ls) {
  auto l = make_layout(ls);
  using L = decltype(l);
  static_assert(is_static_v<L>, "make_rmem_tensor: the layout must be static");
  constexpr int N = int(decltype(cosize(l))::value);
  return Tensor<ArrayEngine<T, N>, L>{{}, l};
}
template <class T, class S0, class S1, class... Ss>
BBX_HOST_DEVICE constexpr auto make_rmem_tensor(S0 const& s0, S1 const& s1, Ss const&... ss) {
  return make_rmem_tensor<T>(make_shape(s0, s1, ss...));
}
template <class T, class LayoutOrShape>
  requires(!is_tensor_v<LayoutOrShape>)
BBX_HOST_DEVICE constexpr auto make_fragment(LayoutOrShape const& ls) {
  return make_rmem_tensor<T>(ls);
}
// make_tensor<T>(layout_or_shape): owning register tensor (CuTe's owning make_tensor).
template <class T, class LayoutOrShape>
  requires(is_any_layout_v<LayoutOrShape> || is_tuple_v<LayoutOrShape> || is_integral_v<LayoutOrShape>)
BBX_HOST_DEVICE constexpr auto make_tensor(LayoutOrShape const& ls) {
  return make_rmem_tensor<T>(ls);
}

// make_fragment_like(t): an owning register tensor with t's (static) shape, element type and
// stride order, compact. make_fragment_like<T>(t): element type T. Also accepts a layout.
template <class T = void, class X>
BBX_HOST_DEVICE constexpr auto make_fragment_like(X const& x) {
  if constexpr (is_tensor_v<X>) {
    using E = std::conditional_t<std::is_void_v<T>, std::remove_cv_t<typename X::value_type>, T>;
    return make_rmem_tensor<E>(detail::fragment_layout(detail::inner_layout(x.layout())));
  } else {
    static_assert(!std::is_void_v<T>, "make_fragment_like(layout) needs an element type");
    return make_rmem_tensor<T>(detail::fragment_layout(detail::inner_layout(make_layout(x))));
  }
}
template <class T, class X>
BBX_HOST_DEVICE constexpr auto make_rmem_tensor_like(X const& x) {
  return make_fragment_like<T>(x);
}

// make_identity_tensor(shape): element at coordinate c is c itself (a bbx::tuple of integers; a
// plain integer for a non-tuple shape).
template <class Coord, bool Scalar>
struct identity_iter : counting_iter<Coord> {
  using base = counting_iter<Coord>;
  using value_type = std::conditional_t<Scalar, std::remove_cvref_t<decltype(get<0>(std::declval<Coord>()))>, Coord>;
  using element_type = value_type;
  BBX_HOST_DEVICE constexpr value_type operator*() const {
    if constexpr (Scalar) return get<0>(this->coord);
    else return this->coord;
  }
  // (auto: a static-zero coordinate of this iterator may become a static non-zero one)
  template <class Off>
  BBX_HOST_DEVICE constexpr auto operator[](Off const& off) const {
    return *(*this + off);
  }
  template <class Off>
  BBX_HOST_DEVICE constexpr auto operator+(Off const& off) const {
    auto b = static_cast<base const&>(*this) + off;
    using C2 = std::remove_cvref_t<decltype(b.coord)>;
    return identity_iter<C2, Scalar>{{b.coord}};
  }
};
template <class Shape>
BBX_HOST_DEVICE constexpr auto make_identity_tensor(Shape const& shape) {
  if constexpr (!is_tuple_v<Shape>) {
    // rank-1: the layout is (n):(E<0>) (a tuple, so layout algebra can take its modes apart);
    // elements are plain integers
    return make_tensor(identity_iter<tuple<_0>, true>{{tuple<_0>{}}}, make_identity_layout(make_shape(shape)));
  } else {
    constexpr std::size_t R = tuple_size_v<Shape>;
    auto zero = [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return make_tuple((void(Is), _0{})...);
    }(std::make_index_sequence<R>{});
    return make_tensor(identity_iter<decltype(zero), false>{{zero}}, make_identity_layout(shape));
  }
}

// ---- queries ----------------------------------------------------------------------------------
template <class E, class L>
BBX_HOST_DEVICE constexpr auto size(Tensor<E, L> const& t) { return size(t.layout()); }
template <int I0, int... Is, class E, class L>
BBX_HOST_DEVICE constexpr auto size(Tensor<E, L> const& t) { return size<I0, Is...>(t.layout()); }
template <class E, class L>
BBX_HOST_DEVICE constexpr auto rank(Tensor<E, L> const& t) { return rank(t.layout()); }
template <int... Is, class E, class L>
BBX_HOST_DEVICE constexpr decltype(auto) shape(Tensor<E, L> const& t) { return shape<Is...>(t.layout()); }
template <int... Is, class E, class L>
BBX_HOST_DEVICE constexpr decltype(auto) stride(Tensor<E, L> const& t) { return stride<Is...>(t.layout()); }
template <int... Is, class E, class L>
BBX_HOST_DEVICE constexpr auto layout(Tensor<E, L> const& t) { return layout<Is...>(t.layout()); }
template <class E, class L>
BBX_HOST_DEVICE constexpr auto cosize(Tensor<E, L> const& t) { return cosize(t.layout()); }

// ---- layout algebra applied to tensors ---------------------------------------------------------
template <class E, class L, class B>
BBX_HOST_DEVICE constexpr auto composition(Tensor<E, L> const& t, B const& b) {
  return make_tensor(t.data(), composition(t.layout(), b));
}
template <class E, class L, class B>
BBX_HOST_DEVICE constexpr auto logical_divide(Tensor<E, L> const& t, B const& b) {
  return make_tensor(t.data(), logical_divide(t.layout(), b));
}
template <class E, class L, class B>
BBX_HOST_DEVICE constexpr auto zipped_divide(Tensor<E, L> const& t, B const& b) {
  return make_tensor(t.data(), zipped_divide(t.layout(), b));
}
template <class E, class L, class B>
BBX_HOST_DEVICE constexpr auto tiled_divide(Tensor<E, L> const& t, B const& b) {
  return make_tensor(t.data(), tiled_divide(t.layout(), b));
}
template <class E, class L, class B>
BBX_HOST_DEVICE constexpr auto flat_divide(Tensor<E, L> const& t, B const& b) {
  return make_tensor(t.data(), flat_divide(t.layout(), b));
}

// local_tile(t, tiler, coord): CuTe's inner partition — zipped_divide by the tiler, keep the whole
// tile (its modes become the top-level modes) and select the tile with `coord` in the rest modes;
// `_` entries of coord keep those rest modes (appended after the tile modes).
template <class E, class L, class Tiler, class Crd>
BBX_HOST_DEVICE constexpr auto local_tile(Tensor<E, L> const& t, Tiler const& tiler, Crd const& coord) {
  auto z = zipped_divide(detail::inner_layout(t.layout()), tiler);
  auto l0 = layout<0>(z);
  auto l1 = layout<1>(z);
  auto c = detail::pad_coord<detail::top_rank_v<decltype(l1)>>(coord);
  auto so = detail::slice_modes(c, l1);
  auto sub = [&]() BBX_INLINE {
    if constexpr (is_layout_v<std::remove_cvref_t<decltype(get<0>(so))>>) return detail::concat_modes(l0, get<0>(so));
    else return detail::concat_modes(l0);
  }();
  constexpr long long Div = detail::offset_div<decltype(detail::zero_underscores(c)), typename decltype(l1)::shape_type,
                                               typename decltype(l1)::stride_type>();
  auto rb = detail::rebase<Div>(t.layout(), sub, get<1>(so));
  return make_tensor(detail::iter_add<(is_composed_layout_v<L> ? 0 : Div)>(t.data(), get<1>(rb)), get<0>(rb));
}

// The flat coordinate of index `idx` in `l`: one integer per top-level mode (CuTe's
// get_flat_coord: the hierarchical coordinate idx2crd(idx, shape, stride), each mode
// linearised column-major).
template <class L, class Idx>
BBX_HOST_DEVICE constexpr auto get_flat_coord(L const& l, Idx const& idx) {
  auto hier = idx2crd(idx, l.shape(), l.stride());
  if constexpr (is_tuple_v<typename L::shape_type>) {
    return transform(hier, l.shape(), [](auto const& c, auto const& s) BBX_INLINE { return crd2idx(c, s); });
  } else {
    return hier;
  }
}

// local_partition(t, thr_layout, thr_idx): CuTe's outer partition — zipped_divide by the thread
// layout's shape, select this thread's element in every tile, keep all the rest modes.
template <class E, class L, class ThrLayout, class Idx>
BBX_HOST_DEVICE constexpr auto local_partition(Tensor<E, L> const& t, ThrLayout const& thr, Idx const& idx) {
  auto tl = make_layout(thr);
  auto z = zipped_divide(detail::inner_layout(t.layout()), product_each(tl.shape()));
  auto l0 = layout<0>(z);
  auto l1 = layout<1>(z);
  auto c = get_flat_coord(tl, idx);
  auto off = crd2idx(c, l0.shape(), l0.stride());
  constexpr long long Div =
      detail::offset_div<decltype(c), typename decltype(l0)::shape_type, typename decltype(l0)::stride_type>();
  auto rb = detail::rebase<Div>(t.layout(), l1, off);
  return make_tensor(detail::iter_add<(is_composed_layout_v<L> ? 0 : Div)>(t.data(), get<1>(rb)), get<0>(rb));
}

// With a projection (`proj=(1, None, 1)`): only the modes of the tiler (and of the coordinate,
// or of the thread layout) paired with an integer take part (dice), as in CuTe.
template <class E, class L, class Tiler, class Crd, class Proj>
BBX_HOST_DEVICE constexpr auto local_tile(Tensor<E, L> const& t, Tiler const& tiler, Crd const& coord,
                                          Proj const& proj) {
  return local_tile(t, dice(tiler, proj), dice(coord, proj));
}
template <class E, class L, class ThrLayout, class Idx, class Proj>
BBX_HOST_DEVICE constexpr auto local_partition(Tensor<E, L> const& t, ThrLayout const& thr, Idx const& idx,
                                               Proj const& proj) {
  return local_partition(t, dice(make_layout(thr), proj), idx);
}

// fill(t, x) (vectorised where the layout allows): bbx/algorithm/copy.hpp.

// `t = other` for a tensor variable in dynamic control flow (the DSL rebinds the name): a view
// takes the other view's pointer and layout. Only a view of the same C++ type can be rebound so
// (a register tensor owns its elements, so assigning one would copy them instead).
template <class E, class L, class Tn>
BBX_HOST_DEVICE constexpr void rebind_view(Tensor<E, L>& t, Tn const& other) {
  static_assert(std::is_same_v<Tensor<E, L>, std::remove_cvref_t<Tn>>,
                "a tensor variable assigned in dynamic control flow must keep its layout type: the "
                "new value's shape, strides or memory differ (use a new name for it)");
  static_assert(!is_array_engine<E>::value,
                "a register tensor cannot be rebound in dynamic control flow (use a new name, or "
                "copy into it with .store / cute.copy)");
  t = other;
}

}  // namespace bbx
