// bbx/platform/amd/warp_hooks.hpp — the DSL's warp functions on AMD: the exec mask, wave
// barriers and the platform's butterflies.
// See platform/warp_hooks.hpp.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/intrinsics/redux.hpp"
#include "bbx/platform.hpp"

namespace bbx::arch {

template <bool Renamed = ::bbx::detail::lane_renaming>
BBX_DEVICE unsigned activemask() { return active_lanes<Renamed>(); }
// The wave's lanes run in lockstep: order the LDS and memory accesses around the point.
BBX_DEVICE void sync_warp() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
template <bool Renamed = ::bbx::detail::lane_renaming>
BBX_DEVICE bool vote_uni(bool pred) {
  const unsigned b = vote_ballot<Renamed>(pred);
  return b == 0u || b == activemask<Renamed>();
}

template <class Kind, bool Abs = false, bool NaN = false, bool Renamed = ::bbx::detail::lane_renaming, class T>
BBX_DEVICE T warp_redux_sync(T v) {
  v = detail::redux_input<Abs>(v);
  BBX_UNROLL
  for (int m = 16; m >= 1; m >>= 1) v = detail::redux_combine<Kind, NaN>(v, shuffle_sync_bfly<Renamed>(v, m));
  return v;
}

}  // namespace bbx::arch
