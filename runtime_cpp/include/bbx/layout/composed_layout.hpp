// bbx/layout/composed_layout.hpp — ComposedLayout<Outer, Offset, Inner>: c -> outer(offset + inner(c)).
// The outer function is usually a Swizzle; the domain (shape, size, rank) is the inner layout's.
#pragma once

#include "swizzle.hpp"

namespace bbx {

template <class Outer, class Offset, class Inner>
struct ComposedLayout : private tuple<Outer, Offset, Inner> {
  using base_t = tuple<Outer, Offset, Inner>;
  BBX_HOST_DEVICE constexpr ComposedLayout(Outer const& outer = {}, Offset const& offset = {},
                                           Inner const& inner = {})
      : base_t(outer, offset, inner) {}

  BBX_HOST_DEVICE constexpr decltype(auto) layout_a() const { return get<0>(static_cast<base_t const&>(*this)); }
  BBX_HOST_DEVICE constexpr decltype(auto) offset() const { return get<1>(static_cast<base_t const&>(*this)); }
  BBX_HOST_DEVICE constexpr decltype(auto) layout_b() const { return get<2>(static_cast<base_t const&>(*this)); }
  BBX_HOST_DEVICE constexpr decltype(auto) outer() const { return layout_a(); }
  BBX_HOST_DEVICE constexpr decltype(auto) inner() const { return layout_b(); }
  BBX_HOST_DEVICE constexpr decltype(auto) shape() const { return layout_b().shape(); }

  template <class Crd>
  BBX_HOST_DEVICE constexpr auto operator()(Crd const& c) const {
    if constexpr (has_underscore_v<Crd>) {
      auto so = slice_and_offset(c, layout_b());
      return ComposedLayout<Outer, decltype(offset() + get<1>(so)), std::remove_cvref_t<decltype(get<0>(so))>>(
          layout_a(), offset() + get<1>(so), get<0>(so));
    } else {
      return layout_a()(offset() + layout_b()(c));
    }
  }
  template <class C0, class C1, class... Cs>
  BBX_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(make_coord(c0, c1, cs...));
  }

  template <class Sink>
  BBX_HOST_DEVICE constexpr void format_to(Sink const& sink) const;  // defined in print.hpp
};

template <class T>
struct is_composed_layout : std::false_type {};
template <class A, class O, class B>
struct is_composed_layout<ComposedLayout<A, O, B>> : std::true_type {};
template <class T>
inline constexpr bool is_composed_layout_v = is_composed_layout<std::remove_cvref_t<T>>::value;

template <class Outer, class Offset, class Inner>
BBX_HOST_DEVICE constexpr auto make_composed_layout(Outer const& outer, Offset const& offset,
                                                    Inner const& inner) {
  return ComposedLayout<Outer, Offset, Inner>(outer, offset, inner);
}

template <class A, class O, class B>
BBX_HOST_DEVICE constexpr auto size(ComposedLayout<A, O, B> const& l) {
  return size(l.layout_b());
}
template <int I0, int... Is, class A, class O, class B>
BBX_HOST_DEVICE constexpr auto size(ComposedLayout<A, O, B> const& l) {
  return size<I0, Is...>(l.layout_b());
}
template <class A, class O, class B>
BBX_HOST_DEVICE constexpr auto rank(ComposedLayout<A, O, B> const& l) {
  return rank(l.layout_b());
}
template <class A, class O, class B>
BBX_HOST_DEVICE constexpr auto depth(ComposedLayout<A, O, B> const& l) {
  return depth(l.layout_b());
}
template <int... Is, class A, class O, class B>
BBX_HOST_DEVICE constexpr decltype(auto) shape(ComposedLayout<A, O, B> const& l) {
  return shape<Is...>(l.layout_b());
}
template <class A, class O, class B>
BBX_HOST_DEVICE constexpr auto cosize(ComposedLayout<A, O, B> const& l) {
  if constexpr (is_swizzle_v<A>) {
    return l.layout_a().cosize();
  } else {
    return cosize(l.layout_a());
  }
}
template <int... Is, class A, class O, class B>
BBX_HOST_DEVICE constexpr auto layout(ComposedLayout<A, O, B> const& l) {
  return make_composed_layout(l.layout_a(), l.offset(), layout<Is...>(l.layout_b()));
}
template <std::size_t I, class A, class O, class B>
BBX_HOST_DEVICE constexpr auto get(ComposedLayout<A, O, B> const& l) {
  return make_composed_layout(l.layout_a(), l.offset(), get<I>(l.layout_b()));
}
template <class Crd, class A, class O, class B>
BBX_HOST_DEVICE constexpr auto slice_and_offset(Crd const& c, ComposedLayout<A, O, B> const& l) {
  return make_tuple(l(c), _0{});
}

}  // namespace bbx
