// bbx/layout/composed_layout.hpp — ComposedLayout<A, Offset, B>: c -> A(offset + B(c)), CuTe's
// layout_a/offset/layout_b. The DSL calls A the `inner` function (usually a Swizzle, applied
// last) and B the `outer` layout, whose domain (shape, size, rank) the composition has.
// Slicing folds the slice's offset into the composed offset, with what the types say about its
// divisibility (multiple_of, offset_div.hpp): copies through a swizzle need it.
#pragma once

#include "offset_div.hpp"
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
  // the DSL's names (`ComposedLayout.inner` / `.outer`)
  BBX_HOST_DEVICE constexpr decltype(auto) inner() const { return layout_a(); }
  BBX_HOST_DEVICE constexpr decltype(auto) outer() const { return layout_b(); }
  BBX_HOST_DEVICE constexpr decltype(auto) shape() const { return layout_b().shape(); }

  template <class Crd>
  BBX_HOST_DEVICE constexpr auto operator()(Crd const& c) const {
    if constexpr (has_underscore_v<Crd>) {
      auto so = slice_and_offset(c, layout_b());
      using In = std::remove_cvref_t<decltype(layout_b())>;
      constexpr long long Div =
          detail::offset_div<decltype(detail::zero_underscores(c)), typename In::shape_type, typename In::stride_type>();
      auto off = offset() + with_divisibility<Div>(get<1>(so));
      return ComposedLayout<Outer, decltype(off), std::remove_cvref_t<decltype(get<0>(so))>>(layout_a(), off,
                                                                                             get<0>(so));
    } else {
      auto x = layout_b()(c);
      using Out = std::remove_cvref_t<Outer>;
      if constexpr (is_swizzle_v<Out> && is_C_v<decltype(x)> && !is_C_v<Offset>) {
        // sw(off + hi + lo) == sw(off + lo) + hi for hi a multiple of the swizzle's size (it
        // changes no bit the swizzle reads or writes): static offsets that only move between
        // swizzle periods (k-blocks, stages) become immediates of one swizzled base.
        constexpr long long P = decltype(Out::size())::value;
        constexpr long long v = static_cast<long long>(decltype(x)::value);
        constexpr long long lo = ((v % P) + P) % P;
        return layout_a()(offset() + Int<int(lo)>{}) + Int<int(v - lo)>{};
      } else {
        return layout_a()(offset() + x);
      }
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
// A swizzle changes bits below log2(Swizzle::size()) only: the offsets of `sw o off o inner`
// stay below cosize(inner) + off rounded up to a multiple of the swizzle's size (a static offset
// counts; a run-time one, of a slice, does not).
template <class A, class O, class B>
BBX_HOST_DEVICE constexpr auto cosize(ComposedLayout<A, O, B> const& l) {
  if constexpr (is_swizzle_v<A>) {
    constexpr auto unit = decltype(l.layout_a().size())::value;
    auto n = [&]() BBX_INLINE {
      if constexpr (is_C_v<O>) return cosize(l.layout_b()) + l.offset();
      else return cosize(l.layout_b());
    }();
    return (n + Int<unit - 1>{}) / Int<unit>{} * Int<unit>{};
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
