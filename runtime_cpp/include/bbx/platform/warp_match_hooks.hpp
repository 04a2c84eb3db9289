// bbx/platform/warp_match_hooks.hpp — the warp functions of bbx/experimental/warp.hpp that differ
// per target:
//   match_any_sync(v)      the lanes of the warp whose v equals the caller's (Int32 mask)
//   match_all_sync(v)      {mask, pred}: all active lanes' mask and true when every lane holds v
//   bar_warp_sync(mask)    a rendezvous and memory fence of the lanes in `mask`
// (the simulator's take a trailing source location).
#pragma once

#include "bbx/config.hpp"

#if defined(BBX_TARGET_AMD)
#  include "bbx/platform/amd/warp_match_hooks.hpp"
#elif defined(BBX_TARGET_CUDA)
#  include "bbx/platform/cuda/warp_match_hooks.hpp"
#else
#  include "bbx/platform/cpu/warp_match_hooks.hpp"
#endif
