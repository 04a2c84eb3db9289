// bbx/arch/copy_async.hpp — asynchronous global -> shared copies and their waits, one struct per
// instruction.
//
// NVIDIA (the DSL's cpasync.CopyG2SOp):
//   SM80_CP_ASYNC<Bytes, Global>   cp.async.{ca,cg}.shared.global [dst], [src], Bytes  (4, 8, 16;
//                                  .cg, L2 only, is for 16 bytes: the DSL's LoadCacheMode.GLOBAL)
//   SM80_CP_ASYNC_ZFILL<Bytes, Global>
//                                  cp.async.{ca,cg}.shared.global [dst], [src], Bytes, src_size:
//                                  src_size = pred ? Bytes : 0 (0: nothing read, zeros written),
//                                  the form NVIDIA's DSL uses for a predicated CopyG2SOp
//   cp_async_commit_group()        cp.async.commit_group
//   cp_async_wait_group<N>()       cp.async.wait_group N
// AMD (gfx942: 1, 2, 4 bytes; gfx950 also 16):
//   AMD_GLOBAL_LOAD_LDS<Bytes>     global_load_lds_{ubyte,ushort,dword,dwordx4}: every lane loads
//                                  Bytes from its own address and the wave writes them to LDS at
//                                  base + lane * Bytes (base wave-uniform, in M0)
//   amd_wait_vmcnt<N>()            s_waitcnt vmcnt(N): at most N vector-memory loads in flight
// Each struct's copy() calls the target's hook (platform/async_copy_hooks.hpp), which is the
// instruction where it exists and a static error where it does not. The simulator (CPU target)
// implements the copies with NVIDIA's semantics in platform/cpu/async_copy.hpp: the source is
// read at issue, the destination written when a wait retires the copy's group, and checked mode
// reports any access to the destination before. The DSL's cute.arch.cp_async_commit_group /
// cp_async_wait_group / cp_async_wait_all and AMD's amd_wait_vmcnt<N>() are hooks too.
#pragma once

#include <cstdint>

#include "bbx/config.hpp"
#include "bbx/platform/async_copy_hooks.hpp"

namespace bbx::arch {

// ---- NVIDIA cp.async -------------------------------------------------------------------------
template <int Bytes, bool Global = false>
struct SM80_CP_ASYNC {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async moves 4, 8 or 16 bytes");
  static_assert(!Global || Bytes == 16, "cp.async.cg (cache global) moves 16 bytes");
  static constexpr int bytes = Bytes;
  template <class Self = SM80_CP_ASYNC>
  BBX_HOST_DEVICE static void copy(void const* gmem_src, void* smem_dst) {
    ::bbx::arch::cp_async_shared_global<Bytes, Global, Self>(gmem_src, smem_dst);
  }
};

// cp.async whose source size is Bytes when `pred` and 0 otherwise (the zero fill).
template <int Bytes, bool Global = false>
struct SM80_CP_ASYNC_ZFILL {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async moves 4, 8 or 16 bytes");
  static_assert(!Global || Bytes == 16, "cp.async.cg (cache global) moves 16 bytes");
  static constexpr int bytes = Bytes;
  template <class Self = SM80_CP_ASYNC_ZFILL>
  BBX_HOST_DEVICE static void copy(void const* gmem_src, void* smem_dst, bool pred) {
    ::bbx::arch::cp_async_shared_global_zfill<Bytes, Global, Self>(gmem_src, smem_dst, pred ? Bytes : 0);
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
    ::bbx::arch::global_load_lds<Bytes, Self>(gmem_src, lds_base);
  }
};

}  // namespace bbx::arch

#include "bbx/platform/async_copy_emulation.hpp"  // the simulator's definitions of the hooks
