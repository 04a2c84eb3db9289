// bbx/platform/amd/async_copy_hooks.hpp — asynchronous copies on AMD: global_load_lds (gfx942:
// 1, 2, 4 bytes; gfx950 also 16) and s_waitcnt vmcnt. See platform/async_copy_hooks.hpp.
#pragma once

#include "bbx/config.hpp"

namespace bbx::arch {

template <int Bytes, bool Global, class Op>
BBX_HOST_DEVICE void cp_async_shared_global(void const* gmem_src, void* smem_dst) {
  (void)gmem_src, (void)smem_dst;
  static_assert(dependent_false<Op>, "cp.async is an NVIDIA instruction (AMD: AMD_GLOBAL_LOAD_LDS)");
}

// gmem_src: this lane's source; lds_base: the wave's destination (lane i writes
// lds_base + i * Bytes), the same in every active lane.
template <int Bytes, class Op>
BBX_HOST_DEVICE void global_load_lds(void const* gmem_src, void* lds_base) {
#if defined(__HIP_DEVICE_COMPILE__)
#  if defined(__gfx950__)
  constexpr bool exists = true;
#  elif defined(__gfx942__)
  constexpr bool exists = Bytes <= 4;
#  else
  constexpr bool exists = false;
#  endif
  if constexpr (exists) {
    // (the size must be a literal: clang checks the builtin's operand before instantiation)
    typedef __attribute__((address_space(1))) void global_void;
    typedef __attribute__((address_space(3))) void lds_void;
    auto* src = (global_void*)(gmem_src);
    auto* dst = (lds_void*)(lds_base);
    if constexpr (Bytes == 1) __builtin_amdgcn_global_load_lds(src, dst, 1, 0, 0);
    else if constexpr (Bytes == 2) __builtin_amdgcn_global_load_lds(src, dst, 2, 0, 0);
    else if constexpr (Bytes == 4) __builtin_amdgcn_global_load_lds(src, dst, 4, 0, 0);
#  if defined(__gfx950__)
    else __builtin_amdgcn_global_load_lds(src, dst, 16, 0, 0);
#  endif
  } else {
    static_assert(dependent_false<Op>, "global_load_lds of this width does not exist on this AMD target");
  }
#else
  (void)gmem_src, (void)lds_base;  // host pass
#endif
}

// s_waitcnt vmcnt(N) (gfx9 encoding: vmcnt in bits [3:0] and [15:14]; expcnt, lgkmcnt not waited)
template <int N>
BBX_HOST_DEVICE void amd_wait_vmcnt() {
  static_assert(N >= 0 && N < 64, "vmcnt is 0..63");
#if defined(__HIP_DEVICE_COMPILE__)
  __builtin_amdgcn_s_waitcnt((N & 0xF) | ((N >> 4) << 14) | (0x7 << 4) | (0xF << 8));
#endif
}

// The DSL's cp_async groups: copies made by CopyG2SOp are either synchronous or global_load_lds
// (counted by vmcnt, not by groups), so a wait is s_waitcnt vmcnt(0) whatever N is (correct; it
// waits for more than a group-exact wait would).
BBX_DEVICE void cp_async_commit_group() {}
template <class N>
BBX_DEVICE void cp_async_wait_group(N const&) {
  amd_wait_vmcnt<0>();
}
BBX_DEVICE void cp_async_wait_all() { amd_wait_vmcnt<0>(); }

}  // namespace bbx::arch
