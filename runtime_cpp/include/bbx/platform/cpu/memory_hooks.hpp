// bbx/platform/cpu/memory_hooks.hpp — ordered loads and stores (std::atomic_ref), the launch's
// dynamic shared-memory size and a clock (the host's steady clock) on the simulator.
// See platform/memory_hooks.hpp.
#pragma once

#include <atomic>
#include <chrono>

#include "bbx/config.hpp"
#include "bbx/intrinsics/atomic_order.hpp"
#include "bbx/platform.hpp"
#include "bbx/platform/atomic_hooks.hpp"

namespace bbx::arch {

namespace detail {
template <order O, scope S, class T>
inline T atomic_load(T* p) {
  return std::atomic_ref<T>(*p).load(O == order::relaxed ? std::memory_order_relaxed
                                                         : std::memory_order_acquire);
}
template <order O, scope S, class T>
inline void atomic_store(T* p, T v) {
  std::atomic_ref<T>(*p).store(v, O == order::relaxed ? std::memory_order_relaxed
                                                      : std::memory_order_release);
}
}  // namespace detail

inline int dynamic_smem_size() {
  return static_cast<int>(sim::detail::cur("dynamic_smem_size").blk->smem_bytes);
}
// The simulator has no cycle counter: nanoseconds of the host's steady clock (monotonic).
inline long long clock64() {
  return static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now().time_since_epoch())
                                    .count());
}

}  // namespace bbx::arch
