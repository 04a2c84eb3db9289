// bbx/platform/cpu/named_barrier_hooks.hpp — named barriers on the simulator: rendezvous of the
// block's fibers (experimental/sim_rendezvous.hpp).
// See platform/named_barrier_hooks.hpp.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/experimental/barrier_red.hpp"
#include "bbx/platform.hpp"
#include "bbx/experimental/sim_rendezvous.hpp"

namespace bbx::experimental {

namespace detail {
inline int block_threads() { return sim::detail::cur("barrier_cta_sync").blk->nthreads; }
inline void check_barrier_id(int id, const char* what) {
  if (id < 0 || id > 15)
    sim::kernel_error(std::string(what) + ": barrier id " + std::to_string(id) +
                      " is not in [0, 15]");
}
}  // namespace detail

inline void barrier_cta_sync(int id, std::source_location loc = std::source_location::current()) {
  detail::check_barrier_id(id, "barrier_cta_sync");
  sim_detail::rendezvous(sim_detail::named_barrier_key(id), detail::block_threads(), false, true,
                         "barrier_cta_sync", loc);
}
inline void barrier_cta_sync(int id, int count,
                             std::source_location loc = std::source_location::current()) {
  detail::check_barrier_id(id, "barrier_cta_sync");
  sim_detail::rendezvous(sim_detail::named_barrier_key(id), count, false, true,
                         "barrier_cta_sync", loc);
}
// Barrier `id` of `count` threads at which every arriving thread waits: the simulator keeps the
// exact named barrier (its rendezvous checks the count and reports deadlocks and misuse per
// id), whatever the block's size (`block_threads`: AMD's choice of s_barrier, unused here).
inline void barrier_cta_sync_waiting(int id, int count, int block_threads,
                                     std::source_location loc = std::source_location::current()) {
  (void)block_threads;
  barrier_cta_sync(id, count, loc);
}
inline void barrier_cta_arrive(int id, int count,
                               std::source_location loc = std::source_location::current()) {
  detail::check_barrier_id(id, "barrier_cta_arrive");
  sim_detail::rendezvous(sim_detail::named_barrier_key(id), count, false, false,
                         "barrier_cta_arrive", loc);
}
template <class Op, class P>
inline detail::bar_red_result_t<Op> barrier_cta_red(
    P const& pred, int id, int count, std::source_location loc = std::source_location::current()) {
  detail::check_barrier_id(id, "barrier_cta_red");
  const int popc = sim_detail::rendezvous(sim_detail::named_barrier_key(id), count,
                                          static_cast<bool>(pred), true, "barrier_cta_red", loc);
  return detail::bar_red_finish<Op>(popc, count);
}
template <class Op, class P>
inline detail::bar_red_result_t<Op> barrier_cta_red(
    P const& pred, int id, std::source_location loc = std::source_location::current()) {
  return barrier_cta_red<Op>(pred, id, detail::block_threads(), loc);
}

}  // namespace bbx::experimental
