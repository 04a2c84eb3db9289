// bbx/platform/amd/warp_match_hooks.hpp — match.sync and bar.warp.sync on AMD: rounds of
// shuffles and ballots; a wave barrier with fences.
// See platform/warp_match_hooks.hpp.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/experimental/warp_match.hpp"
#include "bbx/intrinsics/warp.hpp"
#include "bbx/platform.hpp"

namespace bbx::experimental {

// The lanes holding the caller's value: each round takes the lowest lane not yet matched and
// finds every lane equal to its value (rounds = distinct values in the warp).
template <class T>
BBX_DEVICE int32_t match_any_sync(T const& v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "match_sync: a 32- or 64-bit value");
  unsigned remaining = arch::activemask();
  unsigned mine = 0;
  while (remaining != 0u) {
    const int leader = __builtin_ctz(remaining);
    const T lv = arch::shuffle_sync(v, leader);
    const bool same = detail::same_bits(v, lv);
    const unsigned group = arch::vote_ballot(same) & remaining;
    if (same) mine = group;
    remaining &= ~group;
  }
  return static_cast<int32_t>(mine);
}
template <class T>
BBX_DEVICE match_all_result match_all_sync(T const& v) {
  const T first = arch::shuffle_sync(v, __builtin_ctz(arch::activemask()));
  const bool all = arch::vote_all(detail::same_bits(v, first));
  return match_all_result(all ? static_cast<int32_t>(arch::activemask()) : 0, all);
}

// The lanes of a wavefront execute in lockstep: a subset of a DSL warp is ordered by a
// wave-level barrier with a release / acquire fence around it.
BBX_DEVICE void bar_warp_sync(unsigned mask) {
  (void)mask;
  arch::sync_warp();
}

}  // namespace bbx::experimental
