// bbx/platform/cuda/atomic_hooks.hpp — ordered atomics and fences on CUDA: the relaxed
// atomic*_block / atomic* / atomic*_system with __threadfence_* before (release) and after
// (acquire).
// See platform/atomic_hooks.hpp.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/intrinsics/atomic_order.hpp"
#include "bbx/platform.hpp"
#include "bbx/platform/source_site.hpp"  // BBX_SIM_LOC_*

namespace bbx::arch::detail {

template <scope S>
BBX_DEVICE void cuda_fence() {
#if defined(__CUDA_ARCH__)
  if constexpr (S == scope::cta) __threadfence_block();
  else if constexpr (S == scope::gpu) __threadfence();
  else __threadfence_system();
#endif
}
template <order O, scope S>
BBX_DEVICE void fence() {
  if constexpr (O != order::relaxed) cuda_fence<S>();
}
// The relaxed read-modify-write at scope S (CUDA's atomics are relaxed).
template <rmw Op, scope S, class T>
BBX_DEVICE T cuda_rmw(T* p, T v) {
#if defined(__CUDA_ARCH__)
#  define BBX_CUDA_SCOPED(F)                             \
      if constexpr (S == scope::cta) return F##_block(p, v); \
      else if constexpr (S == scope::gpu) return F(p, v);    \
      else return F##_system(p, v);
  if constexpr (Op == rmw::add) { BBX_CUDA_SCOPED(atomicAdd) }
  else if constexpr (Op == rmw::and_) { BBX_CUDA_SCOPED(atomicAnd) }
  else if constexpr (Op == rmw::or_) { BBX_CUDA_SCOPED(atomicOr) }
  else if constexpr (Op == rmw::xor_) { BBX_CUDA_SCOPED(atomicXor) }
  else if constexpr (Op == rmw::exch) { BBX_CUDA_SCOPED(atomicExch) }
  else if constexpr (std::is_floating_point_v<T>) {
    return Op == rmw::max ? ::bbx::arch::atomic_max(p, v) : ::bbx::arch::atomic_min(p, v);
  } else if constexpr (Op == rmw::max) { BBX_CUDA_SCOPED(atomicMax) }
  else { BBX_CUDA_SCOPED(atomicMin) }
#  undef BBX_CUDA_SCOPED
#else
  (void)v;
  return *p;
#endif
}
template <rmw Op, order O, scope S, class T>
BBX_DEVICE T atomic_rmw(T* p, T v) {
  if constexpr (O == order::release || O == order::acq_rel) cuda_fence<S>();
  const T old = cuda_rmw<Op, S>(p, v);
  if constexpr (O == order::acquire || O == order::acq_rel) cuda_fence<S>();
  return old;
}
template <order O, scope S, class T>
BBX_DEVICE T atomic_cas_ordered(T* p, T expected, T desired) {
  if constexpr (O == order::release || O == order::acq_rel) cuda_fence<S>();
  const T old = ::bbx::arch::atomic_cas(p, expected, desired);
  if constexpr (O == order::acquire || O == order::acq_rel) cuda_fence<S>();
  return old;
}

// A sequentially consistent fence at scope S (PTX membar / fence.sc).
template <scope S>
BBX_DEVICE void fence_seq_cst() {
  cuda_fence<S>();
}

}  // namespace bbx::arch::detail
