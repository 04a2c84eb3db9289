// bbx/platform/cpu/atomic_hooks.hpp — ordered atomics and fences on the simulator:
// std::atomic_ref with the order (blocks run on several host threads), each access checked.
// See platform/atomic_hooks.hpp.
#pragma once

#include <atomic>
#include <cstring>
#include <source_location>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/intrinsics/atomic_order.hpp"
#include "bbx/platform.hpp"
#include "bbx/platform/source_site.hpp"  // BBX_SIM_LOC_*

namespace bbx::arch::detail {

template <order O>
inline constexpr std::memory_order std_order = O == order::relaxed   ? std::memory_order_relaxed
                                               : O == order::acquire ? std::memory_order_acquire
                                               : O == order::release ? std::memory_order_release
                                                                     : std::memory_order_acq_rel;
template <rmw Op, order O, scope S, class T>
inline T atomic_rmw(T* p, T v, std::source_location const& loc) {
  sim::check_atomic_access(p, sizeof(T), loc);
  std::atomic_ref<T> r(*p);
  constexpr auto o = std_order<O>;
  if constexpr (Op == rmw::exch) {
    return r.exchange(v, o);
  } else if constexpr (Op == rmw::add) {
    return r.fetch_add(v, o);
  } else if constexpr (Op == rmw::and_) {
    return r.fetch_and(v, o);
  } else if constexpr (Op == rmw::or_) {
    return r.fetch_or(v, o);
  } else if constexpr (Op == rmw::xor_) {
    return r.fetch_xor(v, o);
  } else {
    T old = r.load(std::memory_order_relaxed);
    while ((Op == rmw::max ? old < v : v < old) && !r.compare_exchange_weak(old, v, o)) {
    }
    return old;
  }
}
template <order O, scope S, class T>
inline T atomic_cas_ordered(T* p, T expected, T desired, std::source_location const& loc) {
  sim::check_atomic_access(p, sizeof(T), loc);
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired, std_order<O>,
                                                 O == order::acq_rel || O == order::acquire
                                                     ? std::memory_order_acquire
                                                     : std::memory_order_relaxed);
  return expected;
}
template <order O, scope S>
inline void fence() {
  if constexpr (O != order::relaxed) std::atomic_thread_fence(std_order<O>);
}

// A sequentially consistent fence (the simulator has one scope).
template <scope S>
inline void fence_seq_cst() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

}  // namespace bbx::arch::detail
