// bbx/experimental/sim_rendezvous.hpp — (CPU simulator) counting rendezvous of some of a block's
// threads: the named barriers of `cutlass.experimental.primitives` (barrier_cta_sync / _arrive /
// _red with a barrier id and a thread count) and bar.warp.sync over a lane mask.
//
//   rendezvous(key, expected, pred, wait, what, loc)
//       counts the caller's arrival at rendezvous `key`; the phase completes when `expected`
//       threads have arrived (a thread arriving later starts the next phase). With `wait` the
//       caller sleeps until its phase completes. Returns the number of arrivals of the phase
//       whose `pred` was true (the barrier's popc reduction; 0 for a caller that does not wait
//       and does not complete the phase).
//   warp_rendezvous(mask, loc)
//       every lane of `mask` (within the caller's 32-lane warp; the caller among them) meets.
//
// Completing a phase starts a new interval for checked mode's shared-memory race detection, as
// a block barrier does (for a barrier of some threads this is looser than the truth: accesses
// of threads outside it are no longer compared across it). A waiting thread shows in deadlock
// reports as waiting at the rendezvous' source line. State is per block run (kept per host
// thread, which runs one block at a time).
#pragma once

#include <bit>
#include <cstdint>
#include <map>
#include <source_location>
#include <string>
#include <vector>

#include "bbx/platform.hpp"

namespace bbx::experimental::sim_detail {

struct Waiter {
  int tid;
  int* result;  // on the waiting fiber's stack (valid while it sleeps)
};

struct Rendezvous {
  int expected = 0;
  int arrived = 0;
  int popc = 0;
  std::vector<Waiter> waiters;
};

struct BlockRendezvous {
  const void* block = nullptr;
  std::uint64_t first_epoch = 0;
  std::map<std::uint64_t, Rendezvous> by_key;
};

BBX_SIM_FN int rendezvous(std::uint64_t key, int expected, bool pred, bool wait, const char* what,
                          std::source_location const& loc);

// With the simulator's runtime object (platform/cpu/sim.hpp) the state and rendezvous() are
// compiled there only: a unit would emit the state's constructor, destructor and TLS
// initialisation and instantiate its containers, used or not.
#if defined(BBX_SIM_DEFINE_RUNTIME)
inline thread_local BlockRendezvous tl_rendezvous;

inline Rendezvous& rendezvous_of(sim::detail::Block& b, std::uint64_t key) {
  BlockRendezvous& s = tl_rendezvous;
  if (s.block != &b || s.first_epoch != b.first_epoch) {
    s.block = &b;
    s.first_epoch = b.first_epoch;
    s.by_key.clear();
  }
  return s.by_key[key];
}

BBX_SIM_FN int rendezvous(std::uint64_t key, int expected, bool pred, bool wait, const char* what,
                          std::source_location const& loc) {
  using namespace sim::detail;
  Thread& t = cur(what);
  Block& b = *t.blk;
  if (t.cancel) [[unlikely]] {
    if (std::uncaught_exceptions() == 0) throw FiberAbort{};
    return 0;
  }
  if (expected <= 0 || expected > b.nthreads)
    sim::kernel_error(std::string(what) + ": thread count " + std::to_string(expected) +
                      " is not in [1, " + std::to_string(b.nthreads) +
                      "] (the threads of the block)");
  Rendezvous& r = rendezvous_of(b, key);
  if (r.arrived > 0 && r.expected != expected)
    sim::kernel_error(std::string(what) + ": thread count " + std::to_string(expected) +
                      " differs from the count " + std::to_string(r.expected) +
                      " of the threads already waiting at this barrier");
  r.expected = expected;
  ++r.arrived;
  r.popc += pred ? 1 : 0;
  if (r.arrived == expected) {
    const int result = r.popc;
    r.arrived = 0;
    r.popc = 0;
    ++b.epoch;
    for (const Waiter& w : r.waiters) {
      *w.result = result;
      Thread& o = b.th[static_cast<std::size_t>(w.tid)];
      o.st = St::Ready;
      b.push(o.tid);
    }
    r.waiters.clear();
    return result;
  }
  if (!wait) return 0;
  int result = 0;
  r.waiters.push_back(Waiter{t.tid, &result});
  t.st = St::Barrier;
  t.bar_loc = loc;
  block_here(t);
  return result;
}
#endif  // BBX_SIM_DEFINE_RUNTIME

// Keys: named barrier id in [0, 2^32); warp rendezvous: bit 62 set, the warp and the mask.
inline std::uint64_t named_barrier_key(int id) { return static_cast<std::uint32_t>(id); }

inline void warp_rendezvous(unsigned mask, std::source_location const& loc) {
  using namespace sim::detail;
  Thread& t = cur("bar_warp_sync");
  const int lane = t.tid & 31, warp = t.tid >> 5;
  const int base = t.tid & ~31;
  const int n = std::min(32, t.blk->nthreads - base);
  const unsigned present = n == 32 ? 0xffffffffu : ((1u << n) - 1u);
  if (((mask >> lane) & 1u) == 0u)
    sim::kernel_error("bar_warp_sync: the mask " + std::to_string(mask) +
                      " does not contain the calling lane " + std::to_string(lane));
  const int expected = std::popcount(mask & present);
  const std::uint64_t key = (std::uint64_t{1} << 62) |
                            (static_cast<std::uint64_t>(warp) << 32) | mask;
  rendezvous(key, expected, false, true, "bar_warp_sync", loc);
}

}  // namespace bbx::experimental::sim_detail
