// bbx/layout/assume.hpp — `cute.assume(x, divby=, pow2=)`: x, with the promise that it is a
// multiple of Div (and a power of two when Pow2). A static integer is checked at compile time;
// a run-time one is checked on the simulator and in debug builds, and handed to clang as an
// assumption elsewhere. (The promise does not become part of x's type: alignment facts that
// bbx derives from types do not see it.)
#pragma once

#include "bbx/config.hpp"
#include "bbx/layout/integer.hpp"

namespace bbx {

template <int Div, bool Pow2 = false, class X>
BBX_HOST_DEVICE constexpr X assume(X const& x) {
  static_assert(Div > 0, "cute.assume: divby must be a positive integer");
  static_assert(!Pow2 || (Div & (Div - 1)) == 0, "cute.assume: divby must be a power of two when pow2=True");
  if constexpr (is_C_v<X>) {
    static_assert(X::value % Div == 0, "cute.assume: the static value is not a multiple of divby");
    static_assert(!Pow2 || (X::value > 0 && (X::value & (X::value - 1)) == 0),
                  "cute.assume: the static value is not a power of two");
  } else {
    BBX_ASSERT(x % Div == 0, "cute.assume: the value is not a multiple of divby");
    BBX_ASSERT(!Pow2 || (x > 0 && (x & (x - 1)) == 0), "cute.assume: the value is not a power of two");
#if defined(__clang__) && !defined(BBX_ASSERTS_ENABLED)
    __builtin_assume(x % Div == 0);
#endif
  }
  return x;
}

}  // namespace bbx
