// bbx/arch/copy_async.hpp — asynchronous global -> shared copies and their waits, one struct per
// instruction.
//
// NVIDIA (the DSL's cpasync.CopyG2SOp):
//   SM80_CP_ASYNC<Bytes, Global>   cp.async.{ca,cg}.shared.global [dst], [src], Bytes  (4, 8, 16;
//                                  .cg, L2 only, is for 16 bytes: the DSL's LoadCacheMode.GLOBAL)
//   cp_async_commit_group()        cp.async.commit_group
//   cp_async_wait_group<N>()       cp.async.wait_group N
// AMD (gfx942: 1, 2, 4 bytes; gfx950 also 16):
//   AMD_GLOBAL_LOAD_LDS<Bytes>     global_load_lds_{ubyte,ushort,dword,dwordx4}: every lane loads
//                                  Bytes from its own address and the wave writes them to LDS at
//                                  base + lane * Bytes (base wave-uniform, in M0)
//   amd_wait_vmcnt<N>()            s_waitcnt vmcnt(N): at most N vector-memory loads in flight
// The simulator (CPU target) implements the copies with NVIDIA's semantics in
// platform/cpu/async_copy.hpp: the source is read at issue, the destination written when a
// wait retires the copy's group, and checked mode reports any access to the destination before.
#pragma once

#include <cstdint>

#include "bbx/config.hpp"

#if defined(BBX_TARGET_CPU)
#  include <source_location>
namespace bbx::sim {
// Defined in bbx/platform/cpu/async_copy.hpp.
inline void async_copy_issue(void* dst, const void* src, int bytes, std::source_location loc);
inline void async_copy_commit();
inline void async_copy_wait(int pending_groups, std::source_location loc);
}  // namespace bbx::sim
#endif

namespace bbx::arch {

// ---- NVIDIA cp.async -------------------------------------------------------------------------
template <int Bytes, bool Global = false>
struct SM80_CP_ASYNC {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async moves 4, 8 or 16 bytes");
  static_assert(!Global || Bytes == 16, "cp.async.cg (cache global) moves 16 bytes");
  static constexpr int bytes = Bytes;
  template <class Self = SM80_CP_ASYNC>
  BBX_HOST_DEVICE static void copy(void const* gmem_src, void* smem_dst) {
#if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
#  if __CUDA_ARCH__ >= 800
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem_dst));
    if constexpr (Global) {
      asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(gmem_src), "n"(Bytes));
    } else {
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(gmem_src), "n"(Bytes));
    }
#  else
    static_assert(dependent_false<Self>, "cp.async needs sm_80 or later");
#  endif
#elif defined(BBX_TARGET_CPU)
    ::bbx::sim::async_copy_issue(smem_dst, gmem_src, Bytes, std::source_location::current());
#elif defined(BBX_TARGET_CUDA)
    (void)gmem_src, (void)smem_dst;  // host pass
#else
    static_assert(dependent_false<Self>, "cp.async is an NVIDIA instruction (AMD: AMD_GLOBAL_LOAD_LDS)");
#endif
  }
};

// ---- AMD global_load_lds ---------------------------------------------------------------------
template <int Bytes>
struct AMD_GLOBAL_LOAD_LDS {
  static_assert(Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 16,
                "global_load_lds moves 1, 2, 4 (gfx942, gfx950) or 16 (gfx950) bytes per lane");
  static constexpr int bytes = Bytes;
  // gmem_src: this lane's source; lds_base: the wave's destination (lane i writes
  // lds_base + i * Bytes); must be the same in every active lane.
  template <class Self = AMD_GLOBAL_LOAD_LDS>
  BBX_HOST_DEVICE static void copy(void const* gmem_src, void* lds_base) {
#if defined(BBX_TARGET_AMD) && defined(__HIP_DEVICE_COMPILE__)
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
      static_assert(dependent_false<Self>, "global_load_lds of this width does not exist on this AMD target");
    }
#elif defined(BBX_TARGET_AMD)
    (void)gmem_src, (void)lds_base;  // host pass
#else
    static_assert(dependent_false<Self>, "global_load_lds is an AMD instruction");
#endif
  }
};

// s_waitcnt vmcnt(N) (gfx9 encoding: vmcnt in bits [3:0] and [15:14]; expcnt, lgkmcnt not waited)
template <int N>
BBX_HOST_DEVICE void amd_wait_vmcnt() {
  static_assert(N >= 0 && N < 64, "vmcnt is 0..63");
#if defined(BBX_TARGET_AMD) && defined(__HIP_DEVICE_COMPILE__)
  __builtin_amdgcn_s_waitcnt((N & 0xF) | ((N >> 4) << 14) | (0x7 << 4) | (0xF << 8));
#endif
}

// ---- the DSL's cute.arch.cp_async_commit_group / cp_async_wait_group ----------------------------
// CUDA: the PTX instructions. CPU: the simulator's groups. AMD: copies made by CopyG2SOp are
// either synchronous or global_load_lds (counted by vmcnt, not by groups), so a wait is
// s_waitcnt vmcnt(0) whatever N is (correct; it waits for more than a group-exact wait would).
#if defined(BBX_TARGET_CPU)
inline void cp_async_commit_group() { ::bbx::sim::async_copy_commit(); }
template <class N>
inline void cp_async_wait_group(N const& n, std::source_location loc = std::source_location::current()) {
  ::bbx::sim::async_copy_wait(static_cast<int>(n), loc);
}
inline void cp_async_wait_all(std::source_location loc = std::source_location::current()) {
  ::bbx::sim::async_copy_commit();
  ::bbx::sim::async_copy_wait(0, loc);
}
#else
BBX_DEVICE void cp_async_commit_group() {
#  if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  asm volatile("cp.async.commit_group;\n" ::);
#  endif
}
namespace detail {
template <int N>
BBX_DEVICE void cp_async_wait_n() {
#  if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#  elif defined(BBX_TARGET_AMD)
  amd_wait_vmcnt<0>();
#  endif
}
}  // namespace detail
// N: a static integer (Int<N>) or a run-time one (0..7 on CUDA; more waits for all groups).
template <class N>
BBX_DEVICE void cp_async_wait_group(N const& n) {
  if constexpr (requires { N::value; }) {
    detail::cp_async_wait_n<int(N::value)>();
  } else {
    switch (static_cast<int>(n)) {
      case 0: detail::cp_async_wait_n<0>(); break;
      case 1: detail::cp_async_wait_n<1>(); break;
      case 2: detail::cp_async_wait_n<2>(); break;
      case 3: detail::cp_async_wait_n<3>(); break;
      case 4: detail::cp_async_wait_n<4>(); break;
      case 5: detail::cp_async_wait_n<5>(); break;
      case 6: detail::cp_async_wait_n<6>(); break;
      case 7: detail::cp_async_wait_n<7>(); break;
      default: detail::cp_async_wait_n<0>(); break;
    }
  }
}
BBX_DEVICE void cp_async_wait_all() {
  cp_async_commit_group();
  detail::cp_async_wait_n<0>();
}
#endif

}  // namespace bbx::arch

#if defined(BBX_TARGET_CPU)
#  include "bbx/platform/cpu/async_copy.hpp"  // the simulator's definitions of the functions above
#endif
