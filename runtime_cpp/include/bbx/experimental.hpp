// bbx/experimental.hpp — `cutlass.experimental.primitives` (the DSL's PTX-shaped low-level API):
// its portable operations (bbx/experimental/*.hpp). A DSL warp is 32 lanes on every target
// (half an AMD wavefront).
//   warp.hpp     shfl_sync_and_valid, vote_sync_ballot, match_any_sync / match_all_sync,
//                bar_warp_sync
//   barrier.hpp  barrier_cta_sync / barrier_cta_arrive / barrier_cta_red (named barriers)
//   memory.hpp   red, atomicrmw, atomicrmw_cas, memory_barrier
//   math.hpp     fmin, fabs
//   print.hpp    print_runtime
#pragma once
#include "bbx/experimental/barrier.hpp"
#include "bbx/experimental/math.hpp"
#include "bbx/experimental/memory.hpp"
#include "bbx/experimental/print.hpp"
#include "bbx/experimental/warp.hpp"
