// bbx/platform.hpp — the per-target platform layer (thread indices, barriers, shuffles, votes,
// atomics, dynamic shared memory, printf, Stream/dim3/launch). The same names exist on every
// target; exactly one implementation header is included (platform/target.hpp).
//   bbx::dim3, bbx::Stream, bbx::LaunchError, bbx::launch(kernel, grid, block, smem, stream, args...)
//   bbx::arch::{thread_idx, block_idx, block_dim, grid_dim, lane_idx, warp_idx, wavefront_size,
//               sync_threads, barrier, shuffle_sync, shuffle_sync_bfly, shuffle_sync_down,
//               shuffle_sync_up, vote_ballot, vote_any, vote_all, atomic_add, atomic_max,
//               atomic_min, atomic_cas, dynamic_smem<T>, printf}
#pragma once

#include "bbx/config.hpp"
#include "bbx/platform/common.hpp"
#include "bbx/platform/target.hpp"

#include "bbx/platform/printf_fmt.hpp"
#include "bbx/platform/print_tensor.hpp"
