// bbx/experimental/warp_match.hpp — what the match functions of bbx/experimental/warp.hpp compare
// and return (their implementations per target: platform/warp_match_hooks.hpp).
#pragma once

#include <cstdint>

#include "bbx/config.hpp"
#include "bbx/layout/tuple.hpp"
#include "bbx/platform.hpp"

namespace bbx::experimental {

// {mask, pred} of match.all (a bbx::tuple, as the DSL returns a pair).
using match_all_result = tuple<int32_t, bool>;

namespace detail {
// Bitwise equality (what PTX match.sync compares).
template <class T>
BBX_HOST_DEVICE bool same_bits(T const& a, T const& b) {
  const auto x = ::bbx::detail::LaneWords<T>::from(a), y = ::bbx::detail::LaneWords<T>::from(b);
  for (int i = 0; i < ::bbx::detail::LaneWords<T>::count; ++i)
    if (x.w[i] != y.w[i]) return false;
  return true;
}
}  // namespace detail

}  // namespace bbx::experimental
