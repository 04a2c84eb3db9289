// bbx/experimental/barrier.hpp — the block barriers of `cutlass.experimental.primitives`: PTX's
// sixteen named barriers per block, with an optional thread count.
//
//   barrier_cta_sync(id)                  every thread of the block meets (no thread count)
//   barrier_cta_sync(id, count)           `count` threads meet at barrier `id` (0..15)
//   barrier_cta_arrive(id, count)         counts the caller at barrier `id` without waiting
//   barrier_cta_red<Op>(pred, id [, count])   meets and reduces pred over the threads that meet:
//                                         bar_red_popc -> int32_t (how many were true),
//                                         bar_red_and / bar_red_or -> bool
//
// Threads are counted one by one (PTX counts whole warps; the same when whole warps arrive,
// which PTX requires of a thread count: a multiple of 32). A phase completes when `count`
// threads have arrived; a later arrival starts the next phase. Every barrier orders memory
// like a block barrier (release before, acquire after).
//
// CUDA: the PTX instructions (barrier{.cta}.sync / .arrive / .red, the non-aligned forms).
// CPU simulator: counting rendezvous (sim_rendezvous.hpp), site-independent as in PTX.
// AMD (no named barriers in hardware): without a thread count, s_barrier (and an LDS reduction
// for _red); with a thread count, a barrier in LDS: per barrier id a 64-bit state {generation,
// arrivals, popc, last result} updated by compare-and-swap, arrivals of a wavefront's lanes
// aggregated (by id and count) where no reduction is needed; waiters poll the generation. The
// LDS state is set up on first use: a 64-bit marker word next to it says whether it holds a
// valid state (LDS is not initialised at launch; a stale state left by an earlier block of a bbx
// kernel is a valid quiescent one). A waiting warp must not depend on the other half of its own
// wavefront arriving later in program order (the wave executes the branches one after another).
// A traced kernel's NamedBarriers (KernelNamedBarrier below) take s_barrier instead where the
// barrier spans the whole block and no thread only arrives at it (barrier_cta_sync_waiting).
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/experimental/barrier_red.hpp"
#include "bbx/platform.hpp"
#include "bbx/platform/named_barrier_hooks.hpp"  // barrier_cta_sync / _arrive / _red, per target
#include "bbx/platform/source_site.hpp"

namespace bbx {

// cutlass.pipeline.NamedBarrier(barrier_id, num_threads): barrier `barrier_id` (0..15) met by
// `num_threads` threads, over the barriers above. As in the DSL, `wait` and `sync` are
// `arrive_and_wait` (a named barrier has no wait without arriving).
struct NamedBarrier {
  int barrier_id;
  int num_threads;
  BBX_HOST_DEVICE constexpr NamedBarrier(int id, int n) : barrier_id(id), num_threads(n) {}
  BBX_DEVICE void arrive_and_wait(BBX_SIM_LOC_ONLY_DEFAULT) const {
    experimental::barrier_cta_sync(barrier_id, num_threads BBX_SIM_LOC_ARG);
  }
  BBX_DEVICE void arrive(BBX_SIM_LOC_ONLY_DEFAULT) const {
    experimental::barrier_cta_arrive(barrier_id, num_threads BBX_SIM_LOC_ARG);
  }
};

// The named barriers of one kernel, given what the whole kernel's trace knows: `Block`, the
// block's thread count as a bbx::block_threads type (the kernel's MaxThreads: static extents give
// the count, run-time ones leave it to the target), and `ArrivingIds`, the barrier ids (bit i:
// id i) the kernel meets otherwise than by waiting arrivals here (a plain `arrive`, a primitive
// barrier_cta_* with a thread count; all 16 for a run-time id). A traced kernel that uses
// NamedBarrier declares `using NamedBarrier = bbx::KernelNamedBarrier<MaxThreads, ids>;`.
//
// `arrive_and_wait` on any other id is a barrier at which every arriving thread waits: when its
// thread count is the whole block, it completes exactly when every thread of the block has
// reached it — PTX's `barrier.sync id, count` cannot complete otherwise (a phase needs `count`
// arrivals, each thread arrives once a phase and waits for it), and that is the block barrier
// (`__syncthreads`, AMD's s_barrier). Sharing the block barrier with other whole-block barriers
// is sound: a kernel that does not deadlock on NVIDIA passes its whole-block barriers in one
// order in every thread. barrier_cta_sync_waiting (platform hooks) takes that form where the
// target gains from it (AMD: s_barrier instead of the LDS barrier); partial-block barriers and
// the ids in `ArrivingIds` (where s_barrier would deadlock a producer that only arrives) keep the
// named barrier.
template <class Block, unsigned ArrivingIds>
struct KernelNamedBarrier : NamedBarrier {
  using NamedBarrier::NamedBarrier;
  // The block's thread count if its extents are static, else 0 (the target reads it).
  static constexpr int static_block_threads =
      Block::exact ? static_cast<int>(Block::value) : 0;
  BBX_DEVICE void arrive_and_wait(BBX_SIM_LOC_ONLY_DEFAULT) const {
    if ((ArrivingIds >> (barrier_id & 15)) & 1u)
      experimental::barrier_cta_sync(barrier_id, num_threads BBX_SIM_LOC_ARG);
    else
      experimental::barrier_cta_sync_waiting(barrier_id, num_threads,
                                             static_block_threads BBX_SIM_LOC_ARG);
  }
};

}  // namespace bbx
