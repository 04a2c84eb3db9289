// bbx/platform/cpu/warp_hooks.hpp — the DSL's warp functions on the simulator: wave
// collectives over the warp's lanes.
// See platform/warp_hooks.hpp.
#pragma once

#include <algorithm>
#include <source_location>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/intrinsics/redux.hpp"
#include "bbx/platform.hpp"

namespace bbx::arch {

// The simulator runs every lane of the block (lanes past its end do not exist).
template <bool Renamed = ::bbx::detail::lane_renaming>
inline unsigned activemask() {
  auto& t = sim::detail::cur("activemask");
  const int base = detail::logical_tid<Renamed>(t, "activemask") & ~31;
  const int n = std::min(32, t.blk->nthreads - base);
  return n == 32 ? 0xffffffffu : ((1u << n) - 1u);
}
template <bool Renamed = ::bbx::detail::lane_renaming>
inline void sync_warp(std::source_location loc = std::source_location::current()) {
  sim::wave_collective<char, char>(  // a renamed logical warp is spread over its wave
      0, Renamed ? 64 : 32, [](const char* const*, char* const*, int) BBX_INLINE {}, "sync_warp", loc);
}

template <bool Renamed = ::bbx::detail::lane_renaming>
inline bool vote_uni(bool pred, std::source_location loc = std::source_location::current()) {
  const unsigned b = vote_ballot<Renamed>(pred, loc);
  return b == 0u || b == activemask<Renamed>();
}

template <class Kind, bool Abs = false, bool NaN = false, bool Renamed = ::bbx::detail::lane_renaming, class T>
inline T warp_redux_sync(T v, std::source_location loc = std::source_location::current()) {
  // Under lane renaming the wave's lanes reduce by logical warp (bit 5 of the logical lane).
  constexpr bool renamed = Renamed;
  if constexpr (renamed) detail::logical_tid<true>(sim::detail::cur("warp_redux_sync"), "warp_redux_sync");
  return sim::wave_collective<T, T>(
      detail::redux_input<Abs>(v), renamed ? 64 : 32,
      [](const T* const* ins, T* const* outs, int n) BBX_INLINE {
        for (int h = 0; h < (renamed ? 2 : 1); ++h) {
          bool any = false;
          T acc{};
          for (int i = 0; i < n; ++i) {
            if (!ins[i] || (renamed && (exact_logical_lane(i) >> 5) != h)) continue;
            acc = any ? detail::redux_combine<Kind, NaN>(acc, *ins[i]) : *ins[i];
            any = true;
          }
          for (int i = 0; i < n; ++i)
            if (outs[i] && (!renamed || (exact_logical_lane(i) >> 5) == h)) *outs[i] = acc;
        }
      },
      "warp_redux_sync", loc);
}

}  // namespace bbx::arch
