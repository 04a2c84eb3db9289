// bbx/intrinsics/redux.hpp — the kinds of the DSL's warp reductions (warp_redux_sync, a platform
// hook: platform/warp_hooks.hpp) and how two values combine.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric/numeric_types.hpp"

namespace bbx::arch {

struct redux_add {};
struct redux_and {};
struct redux_or {};
struct redux_xor {};
struct redux_max {};
struct redux_min {};
struct redux_umax {};
struct redux_umin {};
struct redux_fmax {};
struct redux_fmin {};

namespace detail {
template <class Kind, bool NaN, class T>
BBX_HOST_DEVICE T redux_combine(T a, T b) {
  if constexpr (std::is_same_v<Kind, redux_add>) {
    return static_cast<T>(a + b);
  } else if constexpr (std::is_same_v<Kind, redux_and>) {
    return static_cast<T>(a & b);
  } else if constexpr (std::is_same_v<Kind, redux_or>) {
    return static_cast<T>(a | b);
  } else if constexpr (std::is_same_v<Kind, redux_xor>) {
    return static_cast<T>(a ^ b);
  } else if constexpr (is_floating_v<T>) {  // max/min/fmax/fmin of floats
    constexpr bool is_max = std::is_same_v<Kind, redux_max> || std::is_same_v<Kind, redux_fmax> ||
                            std::is_same_v<Kind, redux_umax>;
    if (a != a || b != b) {
      if constexpr (NaN) return a != a ? a : b;  // NaN propagates
      else return a != a ? b : a;                // maxNum / minNum: the other operand
    }
    return is_max ? (a < b ? b : a) : (b < a ? b : a);
  } else if constexpr (std::is_same_v<Kind, redux_umax> || std::is_same_v<Kind, redux_umin>) {
    using U = std::make_unsigned_t<T>;
    const U x = static_cast<U>(a), y = static_cast<U>(b);
    return std::is_same_v<Kind, redux_umax> ? (x < y ? b : a) : (y < x ? b : a);
  } else {  // max/min in T's own signedness (the DSL turns max into umax for unsigned types)
    return std::is_same_v<Kind, redux_max> ? (a < b ? b : a) : (b < a ? b : a);
  }
}
template <bool Abs, class T>
BBX_HOST_DEVICE T redux_input(T v) {
  if constexpr (Abs && is_floating_v<T>) return v < T(0) ? T(-v) : v;
  else return v;
}
}  // namespace detail

}  // namespace bbx::arch
