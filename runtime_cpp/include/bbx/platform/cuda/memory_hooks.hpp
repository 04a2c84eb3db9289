// bbx/platform/cuda/memory_hooks.hpp — ordered loads and stores (volatile accesses and
// fences), the launch's dynamic shared-memory size and clock64 on CUDA.
// See platform/memory_hooks.hpp.
#pragma once

#include "bbx/config.hpp"
#include "bbx/intrinsics/atomic_order.hpp"
#include "bbx/platform.hpp"
#include "bbx/platform/atomic_hooks.hpp"

namespace bbx::arch {

namespace detail {
template <order O, scope S, class T>
BBX_DEVICE T atomic_load(T* p) {
  const T v = *static_cast<T volatile*>(p);  // ld.volatile: a relaxed load of the location
  if constexpr (O == order::acquire || O == order::acq_rel) cuda_fence<S>();
  return v;
}
template <order O, scope S, class T>
BBX_DEVICE void atomic_store(T* p, T v) {
  if constexpr (O == order::release || O == order::acq_rel) cuda_fence<S>();
  *static_cast<T volatile*>(p) = v;
}
}  // namespace detail

BBX_DEVICE int dynamic_smem_size() {
#if defined(__CUDA_ARCH__)
  unsigned r;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));
  return static_cast<int>(r);
#else
  return 0;
#endif
}
BBX_DEVICE long long clock64() {
#if defined(__CUDA_ARCH__)
  return ::clock64();
#else
  return 0;
#endif
}

}  // namespace bbx::arch
