// bbx/platform/cuda/warp_match_hooks.hpp — match.sync and bar.warp.sync on CUDA: __match_any_sync,
// __match_all_sync, __syncwarp.
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
#if defined(__CUDA_ARCH__)
  return static_cast<int32_t>(__match_any_sync(0xffffffffu, v));
#else
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
#endif
}
template <class T>
BBX_DEVICE match_all_result match_all_sync(T const& v) {
#if defined(__CUDA_ARCH__)
  int pred = 0;
  const unsigned m = __match_all_sync(0xffffffffu, v, &pred);
  return match_all_result(static_cast<int32_t>(m), pred != 0);
#else
  const T first = arch::shuffle_sync(v, __builtin_ctz(arch::activemask()));
  const bool all = arch::vote_all(detail::same_bits(v, first));
  return match_all_result(all ? static_cast<int32_t>(arch::activemask()) : 0, all);
#endif
}

BBX_DEVICE void bar_warp_sync(unsigned mask) {
#if defined(__CUDA_ARCH__)
  __syncwarp(mask);
#else
  (void)mask;
#endif
}

}  // namespace bbx::experimental
