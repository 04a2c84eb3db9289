// bbx/experimental/barrier_red.hpp — the reductions of barrier_cta_red (bar_red_popc, bar_red_and,
// bar_red_or: the DSL's barrier.red) and how a reduction's result is formed from the count of
// true predicates; the barriers themselves: bbx/experimental/barrier.hpp.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bbx/config.hpp"

namespace bbx::experimental {

struct bar_red_popc {};
struct bar_red_and {};
struct bar_red_or {};

namespace detail {
template <class Op>
using bar_red_result_t = std::conditional_t<std::is_same_v<Op, bar_red_popc>, int32_t, bool>;

template <class Op>
BBX_HOST_DEVICE bar_red_result_t<Op> bar_red_finish(int popc, int participants) {
  if constexpr (std::is_same_v<Op, bar_red_popc>) return popc;
  else if constexpr (std::is_same_v<Op, bar_red_and>) return popc == participants;
  else return popc > 0;
}
}  // namespace detail

}  // namespace bbx::experimental
