// bbx/platform/amd/memory_hooks.hpp — ordered loads and stores (__hip_atomic_load / _store), the
// launch's dynamic LDS size and the cycle counter on AMD.
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
  return __hip_atomic_load(p, amd_order<O>, amd_scope<S>);
}
template <order O, scope S, class T>
BBX_DEVICE void atomic_store(T* p, T v) {
  __hip_atomic_store(p, v, amd_order<O>, amd_scope<S>);
}
}  // namespace detail

// HIP passes the launch's dynamic LDS size as the hidden kernel argument at offset 120 of the
// implicit arguments (code object v5 and later: hidden_dynamic_lds_size).
// The builtin's pointer is in the constant address space (4); the host pass of a HIP unit parses
// this function but never calls it.
BBX_DEVICE int dynamic_smem_size() {
#if defined(__HIP_DEVICE_COMPILE__)
  using constant_u32 = const __attribute__((address_space(4))) unsigned;
  auto implicit = (const __attribute__((address_space(4))) char*)__builtin_amdgcn_implicitarg_ptr();
  return static_cast<int>(*(constant_u32*)(implicit + 120));
#else
  return 0;
#endif
}
BBX_DEVICE long long clock64() { return static_cast<long long>(__builtin_readcyclecounter()); }

}  // namespace bbx::arch
