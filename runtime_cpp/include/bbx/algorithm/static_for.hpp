// bbx/algorithm/static_for.hpp — compile-time loops: `static_for<N>([&](auto i) BBX_INLINE {...})` calls the
// body with i = Int<0>{}, ..., Int<N-1>{} (static, so `i` can index tuples and template args).
#pragma once

#include <utility>

#include "bbx/config.hpp"
#include "bbx/layout/integer.hpp"

namespace bbx {

template <int N, class F>
BBX_HOST_DEVICE constexpr void static_for(F&& f) {
  [&]<int... Is>(std::integer_sequence<int, Is...>) BBX_INLINE {
    (f(Int<Is>{}), ...);
  }(std::make_integer_sequence<int, N>{});
}
// static_for<B, E>(f): i = Int<B>{}, ..., Int<E-1>{}.
template <int B, int E, class F>
BBX_HOST_DEVICE constexpr void static_for(F&& f) {
  [&]<int... Is>(std::integer_sequence<int, Is...>) BBX_INLINE {
    (f(Int<B + Is>{}), ...);
  }(std::make_integer_sequence<int, (E > B ? E - B : 0)>{});
}

// The trip count of Python's range(start, stop, step) (step != 0): range_constexpr's bounds.
template <int Start, int Stop, int Step>
BBX_HOST_DEVICE constexpr int static_range_count() {
  static_assert(Step != 0, "range_constexpr: step must not be 0");
  if constexpr (Step > 0) {
    return Stop > Start ? (Stop - Start + Step - 1) / Step : 0;
  } else {
    return Start > Stop ? (Start - Stop - Step - 1) / -Step : 0;
  }
}

}  // namespace bbx
