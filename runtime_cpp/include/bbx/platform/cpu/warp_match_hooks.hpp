// bbx/platform/cpu/warp_match_hooks.hpp — match.sync and bar.warp.sync on the simulator: wave
// collectives and rendezvous of the warp's lanes.
// See platform/warp_match_hooks.hpp.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/experimental/warp_match.hpp"
#include "bbx/intrinsics/warp.hpp"
#include "bbx/platform.hpp"
#include "bbx/experimental/sim_rendezvous.hpp"

namespace bbx::experimental {

namespace detail {
template <class T>
struct match_out {
  int32_t mask;
  bool pred;
};
template <bool All, class T>
inline match_out<T> match_sync_sim(T const& v, std::source_location const& loc) {
  static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "match_sync: a 32- or 64-bit value");
  static_assert(!bbx::detail::lane_renaming || sizeof(T) == 0,
                "match_sync is not available under lane renaming (the m16n8-exact MMA mode) yet");
  return sim::wave_collective<T, match_out<T>>(
      v, 32,
      [](const T* const* ins, match_out<T>* const* outs, int n) BBX_INLINE {
        std::uint32_t present = 0;
        for (int i = 0; i < n; ++i)
          if (ins[i]) present |= 1u << i;
        for (int i = 0; i < n; ++i) {
          if (!ins[i]) continue;
          std::uint32_t same = 0;
          for (int j = 0; j < n; ++j)
            if (ins[j] && same_bits(*ins[i], *ins[j])) same |= 1u << j;
          if constexpr (All) {
            const bool all = same == present;
            *outs[i] = {all ? static_cast<int32_t>(present) : 0, all};
          } else {
            *outs[i] = {static_cast<int32_t>(same), false};
          }
        }
      },
      All ? "match_all_sync" : "match_any_sync", loc);
}
}  // namespace detail

template <class T>
inline int32_t match_any_sync(T const& v,
                              std::source_location loc = std::source_location::current()) {
  return detail::match_sync_sim<false>(v, loc).mask;
}
template <class T>
inline match_all_result match_all_sync(
    T const& v, std::source_location loc = std::source_location::current()) {
  const auto r = detail::match_sync_sim<true>(v, loc);
  return match_all_result(r.mask, r.pred);
}

inline void bar_warp_sync(unsigned mask,
                          std::source_location loc = std::source_location::current()) {
  sim_detail::warp_rendezvous(mask, loc);
}

}  // namespace bbx::experimental
