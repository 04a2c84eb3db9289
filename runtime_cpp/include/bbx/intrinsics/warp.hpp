// bbx/intrinsics/warp.hpp — the DSL's warp-level functions beyond the platform core, for its
// 32-lane warp (half an AMD wavefront: see DESIGN.md "Warp size"):
//
//   lanemask_eq/lt/le/gt/ge()      32-bit masks of lanes relative to the caller's lane
//   activemask()                   the lanes of the caller's warp that are executing
//   vote_uni(pred)                 whether pred has the same value in every active lane
//   sync_warp()                    a barrier and memory fence among the lanes of the warp
//   warp_redux_sync<Kind, Abs, NaN>(v)   the reduction of v over the warp (every lane gets it):
//                                  redux_add, redux_and, redux_or, redux_xor, redux_max,
//                                  redux_min, redux_umax, redux_umin, redux_fmax, redux_fmin
//   warpsize()                     32
//
// activemask, sync_warp, vote_uni and warp_redux_sync are platform hooks
// (platform/warp_hooks.hpp): AMD: exec mask, ballots and DPP / ds_swizzle butterflies (the
// platform's shuffles); CUDA: the PTX special registers, __syncwarp, redux.sync (sm_80) for
// 32-bit integers and butterflies otherwise; CPU simulator: wave collectives over the warp's
// lanes.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/intrinsics/redux.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/platform.hpp"
#include "bbx/platform/warp_hooks.hpp"

namespace bbx::arch {

// ---- lane masks ------------------------------------------------------------------------------
BBX_DEVICE unsigned lanemask_eq() { return 1u << lane_idx(); }
BBX_DEVICE unsigned lanemask_lt() { return (1u << lane_idx()) - 1u; }
BBX_DEVICE unsigned lanemask_le() {
  return static_cast<unsigned>((2ull << lane_idx()) - 1ull);
}
BBX_DEVICE unsigned lanemask_gt() { return ~lanemask_le(); }
BBX_DEVICE unsigned lanemask_ge() { return ~lanemask_lt(); }
BBX_DEVICE int warpsize() { return 32; }

}  // namespace bbx::arch
