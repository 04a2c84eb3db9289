// bbx/algorithm/functional.hpp — binary function objects for `reduce` and friends.
#pragma once

#include "bbx/config.hpp"

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
// maximum/minimum compare like CuTe's max/min (`a < b ? b : a`): not NaN-propagating.
struct maximum {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return a < b ? b : a; }
};
struct minimum {
  template <class A, class B>
  BBX_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return b < a ? b : a; }
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
