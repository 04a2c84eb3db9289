// bbx/algorithm/static_for.hpp — compile-time loops: `static_for<N>([&](auto i) {...})` calls the
// body with i = Int<0>{}, ..., Int<N-1>{} (static, so `i` can index tuples and template args).
#pragma once

#include <utility>

#include "bbx/config.hpp"
#include "bbx/layout/integer.hpp"

namespace bbx {

template <int N, class F>
BBX_HOST_DEVICE constexpr void static_for(F&& f) {
  [&]<int... Is>(std::integer_sequence<int, Is...>) {
    (f(Int<Is>{}), ...);
  }(std::make_integer_sequence<int, N>{});
}
// static_for<B, E>(f): i = Int<B>{}, ..., Int<E-1>{}.
template <int B, int E, class F>
BBX_HOST_DEVICE constexpr void static_for(F&& f) {
  [&]<int... Is>(std::integer_sequence<int, Is...>) {
    (f(Int<B + Is>{}), ...);
  }(std::make_integer_sequence<int, (E > B ? E - B : 0)>{});
}

}  // namespace bbx
