// bbx/platform/warp_hooks.hpp — the DSL's warp functions that differ per target (used through
// bbx/intrinsics/warp.hpp, which includes the platform core first):
//   activemask()                   the lanes of the caller's warp that are executing
//   sync_warp()                    a barrier and memory fence among the lanes of the warp
//   vote_uni(pred)                 whether pred has the same value in every active lane
//   warp_redux_sync<Kind, Abs, NaN>(v)   the reduction of v over the warp (every lane gets it)
#pragma once

#include "bbx/config.hpp"

#if defined(BBX_TARGET_AMD)
#  include "bbx/platform/amd/warp_hooks.hpp"
#elif defined(BBX_TARGET_CUDA)
#  include "bbx/platform/cuda/warp_hooks.hpp"
#else
#  include "bbx/platform/cpu/warp_hooks.hpp"
#endif
