// bbx/algorithm/functional.hpp — binary function objects for `reduce` and friends.
#pragma once

#include "bbx/config.hpp"
#include "bbx/numeric/math.hpp"

namespace bbx {

struct plus {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return a + b; }
};
struct minus {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return a - b; }
};
struct multiplies {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return a * b; }
};
struct divides_op {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return a / b; }
};
// maximum/minimum (ReductionOp.MAX/MIN): not NaN-propagating. Two floats (or doubles) take the
// IEEE maxNum/minNum instruction (a NaN operand yields the other operand); other types compare
// like CuTe's max/min (`a < b ? b : a`), which a compiler cannot turn into one instruction for
// floats because of NaN.
struct maximum {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const {
    if constexpr (std::is_same_v<A, B> && (std::is_same_v<A, float> || std::is_same_v<A, double>)) {
      if (!std::is_constant_evaluated()) return ::bbx::maxnum(a, b);
    }
    return a < b ? b : a;
  }
};
struct minimum {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const {
    if constexpr (std::is_same_v<A, B> && (std::is_same_v<A, float> || std::is_same_v<A, double>)) {
      if (!std::is_constant_evaluated()) return ::bbx::minnum(a, b);
    }
    return b < a ? b : a;
  }
};
struct logical_and {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr bool operator()(A const& a, B const& b) const { return a && b; }
};
struct logical_or {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr bool operator()(A const& a, B const& b) const { return a || b; }
};
struct bit_and {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return a & b; }
};
struct bit_or {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return a | b; }
};
struct bit_xor {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return a ^ b; }
};

}  // namespace bbx
