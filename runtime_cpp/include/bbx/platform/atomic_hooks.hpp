// bbx/platform/atomic_hooks.hpp — the ordered atomics of the DSL's `sem=` / `scope=` atomics
// (bbx/intrinsics/atomic.hpp), per target:
//   detail::atomic_rmw<rmw, order, scope>(p, v [, loc])          the old value
//   detail::atomic_cas_ordered<order, scope>(p, expected, desired [, loc])
//   detail::fence<order, scope>()
//   BBX_SIM_LOC_PARAM / _DEFAULT / _ARG   the source-location parameter the simulator's atomics
//                                         take (nothing elsewhere)
#pragma once

#include "bbx/config.hpp"

#if defined(BBX_TARGET_AMD)
#  include "bbx/platform/amd/atomic_hooks.hpp"
#elif defined(BBX_TARGET_CUDA)
#  include "bbx/platform/cuda/atomic_hooks.hpp"
#else
#  include "bbx/platform/cpu/atomic_hooks.hpp"
#endif
