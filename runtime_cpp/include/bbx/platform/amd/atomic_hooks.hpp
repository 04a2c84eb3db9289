// bbx/platform/amd/atomic_hooks.hpp — ordered atomics and fences on AMD: __hip_atomic_* and
// __builtin_amdgcn_fence with the order and scope (workgroup / agent / system).
// See platform/atomic_hooks.hpp.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/intrinsics/atomic_order.hpp"
#include "bbx/platform.hpp"
#include "bbx/platform/source_site.hpp"  // BBX_SIM_LOC_*

namespace bbx::arch::detail {

template <order O>
inline constexpr int amd_order = O == order::relaxed   ? __ATOMIC_RELAXED
                                 : O == order::acquire ? __ATOMIC_ACQUIRE
                                 : O == order::release ? __ATOMIC_RELEASE
                                                       : __ATOMIC_ACQ_REL;
template <scope S>
inline constexpr int amd_scope = S == scope::cta   ? __HIP_MEMORY_SCOPE_WORKGROUP
                                 : S == scope::gpu ? __HIP_MEMORY_SCOPE_AGENT
                                                   : __HIP_MEMORY_SCOPE_SYSTEM;
template <rmw Op, order O, scope S, class T>
BBX_DEVICE T atomic_rmw(T* p, T v) {
  constexpr int o = amd_order<O>, s = amd_scope<S>;
  if constexpr (Op == rmw::add) return __hip_atomic_fetch_add(p, v, o, s);
  else if constexpr (Op == rmw::and_) return __hip_atomic_fetch_and(p, v, o, s);
  else if constexpr (Op == rmw::or_) return __hip_atomic_fetch_or(p, v, o, s);
  else if constexpr (Op == rmw::xor_) return __hip_atomic_fetch_xor(p, v, o, s);
  else if constexpr (Op == rmw::max) return __hip_atomic_fetch_max(p, v, o, s);
  else if constexpr (Op == rmw::min) return __hip_atomic_fetch_min(p, v, o, s);
  else return __hip_atomic_exchange(p, v, o, s);
}
template <order O, scope S, class T>
BBX_DEVICE T atomic_cas_ordered(T* p, T expected, T desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, amd_order<O>,
                                       O == order::release || O == order::relaxed ? __ATOMIC_RELAXED
                                                                                  : __ATOMIC_ACQUIRE,
                                       amd_scope<S>);
  return expected;
}
template <order O, scope S>
BBX_DEVICE void fence() {
  if constexpr (O == order::relaxed) return;
  else if constexpr (S == scope::cta) __builtin_amdgcn_fence(amd_order<O>, "workgroup");
  else if constexpr (S == scope::gpu) __builtin_amdgcn_fence(amd_order<O>, "agent");
  else __builtin_amdgcn_fence(amd_order<O>, "");
}

// A sequentially consistent fence at scope S (PTX membar / fence.sc).
template <scope S>
BBX_DEVICE void fence_seq_cst() {
  if constexpr (S == scope::cta) __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
  else if constexpr (S == scope::gpu) __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
  else __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "");
}

}  // namespace bbx::arch::detail
