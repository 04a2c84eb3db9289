// bbx/platform/amd/named_barrier_hooks.hpp — named barriers on AMD, in LDS (see
// bbx/experimental/barrier.hpp).
// See platform/named_barrier_hooks.hpp.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/experimental/barrier_red.hpp"
#include "bbx/platform.hpp"

namespace bbx::experimental {

// ---- AMD ----------------------------------------------------------------------------------------
namespace detail {
struct alignas(16) lds_barrier {
  unsigned long long marker;  // kValid: `state` holds a barrier state
  unsigned long long state;   // gen[63:48] result[47:32] popc[31:16] arrived[15:0]
};
inline constexpr unsigned long long kValid = 0x62627821'4e626172ull;     // "bbx!Nbar"
inline constexpr unsigned long long kSettingUp = 0x62627821'53657455ull;  // "bbx!SetU"

BBX_DEVICE lds_barrier* lds_barriers() {
  BBX_SHARED lds_barrier slots[16];
  return slots;
}
BBX_DEVICE unsigned bar_gen(unsigned long long s) { return static_cast<unsigned>(s >> 48); }
BBX_DEVICE unsigned bar_result(unsigned long long s) { return static_cast<unsigned>(s >> 32) & 0xffffu; }
BBX_DEVICE unsigned bar_popc(unsigned long long s) { return static_cast<unsigned>(s >> 16) & 0xffffu; }
BBX_DEVICE unsigned bar_arrived(unsigned long long s) { return static_cast<unsigned>(s) & 0xffffu; }
BBX_DEVICE unsigned long long bar_state(unsigned gen, unsigned result, unsigned popc, unsigned arrived) {
  return (static_cast<unsigned long long>(gen & 0xffffu) << 48) |
         (static_cast<unsigned long long>(result & 0xffffu) << 32) |
         (static_cast<unsigned long long>(popc & 0xffffu) << 16) | (arrived & 0xffffu);
}
BBX_DEVICE unsigned long long lds_load(unsigned long long* p) {
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_WORKGROUP);
}
BBX_DEVICE bool lds_cas(unsigned long long* p, unsigned long long& expected, unsigned long long desired) {
  return __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_ACQ_REL,
                                              __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_WORKGROUP);
}

// Makes `b.state` valid: the lane that claims the marker resets the state; the others wait.
BBX_DEVICE void lds_barrier_ready(lds_barrier& b) {
  unsigned long long m = lds_load(&b.marker);
  while (m != kValid) {
    if (m != kSettingUp) {
      if (lds_cas(&b.marker, m, kSettingUp)) {
        __hip_atomic_store(&b.state, 0ull, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
        __hip_atomic_store(&b.marker, kValid, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_WORKGROUP);
        return;
      }
      continue;  // m holds what the marker is now
    }
    __builtin_amdgcn_s_sleep(1);
    m = lds_load(&b.marker);
  }
}

// Waits until barrier `b` has left generation `gen`; returns the state then.
BBX_DEVICE unsigned long long lds_wait(lds_barrier& b, unsigned gen) {
  unsigned long long s = lds_load(&b.state);
  while (bar_gen(s) == (gen & 0xffffu)) {
    __builtin_amdgcn_s_sleep(1);
    s = lds_load(&b.state);
  }
  return s;
}

BBX_DEVICE int wave_lane() { return ::bbx::arch::detail::wave_lane(); }

// barrier_cta_sync / _arrive with a thread count: the active lanes of the wavefront arrive
// together per distinct (id, count); each lane learns the generation it joined.
template <bool Wait>
BBX_DEVICE void lds_arrive(int id, int count) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  lds_barrier& b = lds_barriers()[id & 15];
  lds_barrier_ready(b);
  const int lane = wave_lane();
  unsigned long long pending = __builtin_amdgcn_read_exec();
  unsigned joined = 0;  // the generation of the caller's phase
  while (pending != 0ull) {
    const int leader = __builtin_ctzll(pending);
    const int lid = __builtin_amdgcn_readlane(id, leader);
    const int lcount = __builtin_amdgcn_readlane(count, leader);
    const unsigned long long group = __builtin_amdgcn_ballot_w64(id == lid && count == lcount) & pending;
    unsigned long long before = 0;
    if (lane == leader) {
      lds_barrier& g = lds_barriers()[lid & 15];
      const unsigned n = static_cast<unsigned>(__builtin_popcountll(group));
      const unsigned c = static_cast<unsigned>(lcount);
      before = lds_load(&g.state);
      while (true) {
        const unsigned total = bar_arrived(before) + n;
        const unsigned done = total / c;  // phases this group completes
        const unsigned long long next =
            done == 0 ? bar_state(bar_gen(before), bar_result(before), bar_popc(before), total)
                      : bar_state(bar_gen(before) + done, 0, 0, total % c);
        if (lds_cas(&g.state, before, next)) break;
      }
    }
    const unsigned lo = static_cast<unsigned>(__builtin_amdgcn_readlane(static_cast<int>(before), leader));
    const unsigned hi = static_cast<unsigned>(__builtin_amdgcn_readlane(static_cast<int>(before >> 32), leader));
    const unsigned long long old = (static_cast<unsigned long long>(hi) << 32) | lo;
    if ((group >> lane) & 1ull) {
      const unsigned index = static_cast<unsigned>(__builtin_popcountll(group & ((1ull << lane) - 1ull)));
      joined = bar_gen(old) + (bar_arrived(old) + index) / static_cast<unsigned>(count);
    }
    pending &= ~group;
  }
  if constexpr (Wait) {
    const unsigned long long now = lds_load(&b.state);
    // A phase completed by the caller's own arrival has already moved on.
    if (static_cast<short>(static_cast<unsigned short>(bar_gen(now) - joined)) <= 0) lds_wait(b, joined);
  }
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// barrier_cta_red with a thread count: lane by lane (each arrival carries its predicate).
BBX_DEVICE int lds_red(bool pred, int id, int count) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  lds_barrier& b = lds_barriers()[id & 15];
  lds_barrier_ready(b);
  const unsigned c = static_cast<unsigned>(count);
  unsigned long long before = lds_load(&b.state);
  unsigned long long next;
  while (true) {
    const unsigned arrived = bar_arrived(before) + 1u;
    const unsigned popc = bar_popc(before) + (pred ? 1u : 0u);
    next = arrived == c ? bar_state(bar_gen(before) + 1u, popc, 0, 0)
                        : bar_state(bar_gen(before), bar_result(before), popc, arrived);
    if (lds_cas(&b.state, before, next)) break;
  }
  int result;
  if (bar_gen(next) != bar_gen(before)) {  // the caller completed the phase
    result = static_cast<int>(bar_result(next));
  } else {
    const unsigned long long s = lds_wait(b, bar_gen(before));
    // The state carries the result of the last completed phase only: the caller's phase must
    // be that one (a later phase needs the caller again, unless threads change barriers).
    if (((bar_gen(s) - bar_gen(before)) & 0xffffu) != 1u) __builtin_trap();
    result = static_cast<int>(bar_result(s));
  }
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  return result;
}

// Whole-block barrier_cta_red: s_barrier around an LDS count of the true predicates.
template <class Op>
BBX_DEVICE int block_red(bool pred) {
  BBX_SHARED int count;
  if (::bbx::arch::detail::linear_tid() == 0) count = 0;
  ::bbx::arch::sync_threads();
  const unsigned long long truth = __builtin_amdgcn_ballot_w64(pred);
  const unsigned long long active = __builtin_amdgcn_read_exec();
  if (wave_lane() == __builtin_ctzll(active))
    __hip_atomic_fetch_add(&count, __builtin_popcountll(truth), __ATOMIC_RELAXED,
                           __HIP_MEMORY_SCOPE_WORKGROUP);
  ::bbx::arch::sync_threads();
  const int r = count;
  ::bbx::arch::sync_threads();  // every thread has read `count` before a next use resets it
  return r;
}

BBX_DEVICE int block_threads() {
  return static_cast<int>(__builtin_amdgcn_workgroup_size_x() * __builtin_amdgcn_workgroup_size_y() *
                          __builtin_amdgcn_workgroup_size_z());
}
}  // namespace detail

BBX_DEVICE void barrier_cta_sync(int id) {
  (void)id;
  ::bbx::arch::sync_threads();
}
BBX_DEVICE void barrier_cta_sync(int id, int count) { detail::lds_arrive<true>(id, count); }
BBX_DEVICE void barrier_cta_arrive(int id, int count) { detail::lds_arrive<false>(id, count); }
// Barrier `id` of `count` threads at which every arriving thread waits (no barrier_cta_arrive on
// it; KernelNamedBarrier in experimental/barrier.hpp says why this is the block barrier when
// `count` is the whole block). `block_threads`: the block's thread count if static, else 0 (read
// from the dispatch: a uniform scalar compare). The whole block: s_barrier; fewer threads: LDS.
BBX_DEVICE void barrier_cta_sync_waiting(int id, int count, int block_threads) {
  const int threads = block_threads > 0 ? block_threads : detail::block_threads();
  if (count == threads)
    ::bbx::arch::sync_threads();
  else
    detail::lds_arrive<true>(id, count);
}
template <class Op, class P>
BBX_DEVICE detail::bar_red_result_t<Op> barrier_cta_red(P const& pred, int id, int count) {
  return detail::bar_red_finish<Op>(detail::lds_red(static_cast<bool>(pred), id, count), count);
}
template <class Op, class P>
BBX_DEVICE detail::bar_red_result_t<Op> barrier_cta_red(P const& pred, int id) {
  (void)id;
  return detail::bar_red_finish<Op>(detail::block_red<Op>(static_cast<bool>(pred)),
                                    detail::block_threads());
}

}  // namespace bbx::experimental
