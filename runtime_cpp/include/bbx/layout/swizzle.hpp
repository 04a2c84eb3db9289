// bbx/layout/swizzle.hpp — Swizzle<B, M, S>: an XOR functor on offsets.
//   offset ^ ((offset & YYY) >> S), YYY = ((1<<B)-1) << (M + max(0,S)); a negative S shifts left.
#pragma once

#include "layout.hpp"

namespace bbx {

template <int B, int M, int S>
struct Swizzle {
  static_assert(B >= 0 && M >= 0, "Swizzle: BBits and MBase must be non-negative");
  static_assert((S < 0 ? -S : S) >= B, "Swizzle: |SShift| must be at least BBits");
  static constexpr int num_bits = B;
  static constexpr int num_base = M;
  static constexpr int num_shft = S;
  static constexpr int bit_msk = (1 << B) - 1;
  static constexpr int yyy_msk = bit_msk << (M + (S > 0 ? S : 0));
  static constexpr int zzz_msk = bit_msk << (M - (S < 0 ? S : 0));

  template <class Offset>
  BBX_HOST_DEVICE static constexpr auto apply(Offset const& offset) {
    if constexpr (is_C_v<Offset>) {
      constexpr auto o = Offset::value;
      if constexpr (S >= 0) {
        return C<decltype(o)(o ^ ((o & yyy_msk) >> S))>{};
      } else {
        return C<decltype(o)(o ^ ((o & yyy_msk) << -S))>{};
      }
    } else {
      if constexpr (S >= 0) {
        return offset ^ ((offset & yyy_msk) >> S);
      } else {
        return offset ^ ((offset & yyy_msk) << -S);
      }
    }
  }
  template <class Offset>
  BBX_HOST_DEVICE constexpr auto operator()(Offset const& offset) const {
    return apply(offset);
  }
  // size of the domain / codomain the swizzle permutes
  BBX_HOST_DEVICE static constexpr auto size() { return Int<(1 << (M + B + (S < 0 ? -S : S)))>{}; }
  BBX_HOST_DEVICE static constexpr auto cosize() { return size(); }

  template <class Sink>
  BBX_HOST_DEVICE constexpr void format_to(Sink const& sink) const {
    sink.put("Sw<");
    sink.put_int(B);
    sink.put(",");
    sink.put_int(M);
    sink.put(",");
    sink.put_int(S);
    sink.put(">");
  }
};

template <class T>
struct is_swizzle : std::false_type {};
template <int B, int M, int S>
struct is_swizzle<Swizzle<B, M, S>> : std::true_type {};
template <class T>
inline constexpr bool is_swizzle_v = is_swizzle<std::remove_cvref_t<T>>::value;

// cute.make_swizzle(b, m, s) (static integers, e.g. make_swizzle(_3{}, _4{}, _3{})).
template <class B, class M, class S>
BBX_HOST_DEVICE constexpr auto make_swizzle(B const&, M const&, S const&) {
  static_assert(is_C_v<B> && is_C_v<M> && is_C_v<S>, "make_swizzle: b, m and s must be compile-time integers");
  return Swizzle<int(B::value), int(M::value), int(S::value)>{};
}

}  // namespace bbx
