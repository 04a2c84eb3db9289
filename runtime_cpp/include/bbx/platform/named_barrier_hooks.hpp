// bbx/platform/named_barrier_hooks.hpp — the named barriers of bbx/experimental/barrier.hpp per
// target: barrier_cta_sync(id[, count]), barrier_cta_arrive(id, count),
// barrier_cta_red<Op>(pred, id[, count]) (the simulator's take a trailing source location).
#pragma once

#include "bbx/config.hpp"

#if defined(BBX_TARGET_AMD)
#  include "bbx/platform/amd/named_barrier_hooks.hpp"
#elif defined(BBX_TARGET_CUDA)
#  include "bbx/platform/cuda/named_barrier_hooks.hpp"
#else
#  include "bbx/platform/cpu/named_barrier_hooks.hpp"
#endif
