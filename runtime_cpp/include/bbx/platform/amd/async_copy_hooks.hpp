// bbx/platform/amd/async_copy_hooks.hpp — asynchronous copies on AMD: global_load_lds (gfx942:
// 1, 2, 4 bytes; gfx950 also 16) and s_waitcnt vmcnt. See platform/async_copy_hooks.hpp.
#pragma once

#include "bbx/arch/copy.hpp"
#include "bbx/config.hpp"
#include "bbx/platform.hpp"  // detail::zero_chunk

// global_load_lds for the DSL's CopyG2SOp and the tile loads (not with -DBBX_NO_AMD_ASYNC_LDS).
#if defined(__HIP_DEVICE_COMPILE__) && !defined(BBX_NO_AMD_ASYNC_LDS) && (defined(__gfx950__) || defined(__gfx942__))
#  define BBX_AMD_LDS_DMA 1
#endif

// Copies report no source location outside the simulator.
#define BBX_COPY_SITE_PARAM
#define BBX_COPY_SITE_ARG
#define BBX_COPY_SITE_DEFAULT

namespace bbx::arch {

template <int Bytes, bool Global, class Op>
BBX_HOST_DEVICE void cp_async_shared_global(void const* gmem_src, void* smem_dst) {
  (void)gmem_src, (void)smem_dst;
  static_assert(dependent_false<Op>, "cp.async is an NVIDIA instruction (AMD: AMD_GLOBAL_LOAD_LDS)");
}

template <int Bytes, bool Global, class Op>
BBX_HOST_DEVICE void cp_async_shared_global_zfill(void const* gmem_src, void* smem_dst, int src_bytes) {
  (void)gmem_src, (void)smem_dst, (void)src_bytes;
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

// ---- global -> shared chunks (atom/copy_async.hpp, tile/st.hpp) ----------------------------
// Widths of a global_load_lds on this AMD target (none without BBX_AMD_LDS_DMA).
template <int Bytes>
inline constexpr bool lds_dma_width =
#if defined(BBX_AMD_LDS_DMA) && defined(__gfx950__)
    Bytes == 4 || Bytes == 16;
#elif defined(BBX_AMD_LDS_DMA)
    Bytes == 4;
#else
    false;
#endif

#if defined(BBX_AMD_LDS_DMA)
// This lane's LDS address minus lane * Bytes: the same in every active lane when the wave's
// destinations are one contiguous block in lane order.
template <int Bytes, class T>
BBX_DEVICE unsigned lds_wave_base(T* dst) {
  typedef __attribute__((address_space(3))) void lds_void;
  const unsigned lds = static_cast<unsigned>(reinterpret_cast<unsigned long>((lds_void*)(void*)dst));
  const unsigned lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  return lds - lane * unsigned(Bytes);
}
// Whether the wave's destinations (dst of each active lane) form one lane-ordered block.
template <int Bytes, class T>
BBX_DEVICE bool lds_wave_contiguous(T* dst) {
  const unsigned base = lds_wave_base<Bytes>(dst);
  return __builtin_amdgcn_ballot_w64(base != __builtin_amdgcn_readfirstlane(base)) == 0;
}
#else
template <int Bytes, class T>
BBX_HOST_DEVICE bool lds_wave_contiguous(T*) {
  return false;
}
#endif

// One chunk of `Bytes` bytes: one global_load_lds when `dma` (the wave's chunks of this copy form
// lane-ordered contiguous LDS blocks, decided once per copy) and the width exists; otherwise
// loaded into a register and written to LDS at once. Global (cp.async.cg) means nothing here.
template <int Bytes, bool Global, class T>
BBX_HOST_DEVICE void g2s_chunk(T const* src, T* dst, [[maybe_unused]] bool dma) {
  using R = uint_bits_t<Bytes * 8>;
#if defined(BBX_AMD_LDS_DMA)
  if constexpr (lds_dma_width<Bytes>) {
    if (dma) {
      typedef __attribute__((address_space(3))) void lds_void;
      const unsigned wave_base = __builtin_amdgcn_readfirstlane(lds_wave_base<Bytes>(dst));
      global_load_lds<Bytes, T>(src, (void*)(lds_void*)(unsigned long)wave_base);
      return;
    }
  }
#endif
  *reinterpret_cast<R*>(static_cast<void*>(dst)) = *reinterpret_cast<R const*>(static_cast<void const*>(src));
}

// One chunk of `Bytes` bytes under a predicate: the chunk (g2s_chunk) when `pred`, else zeros
// written to LDS at once. A global_load_lds chunk branches (the lanes whose predicate holds keep
// their global_load_lds: a lane that stores zeros is not in their EXEC mask, so they do not write
// its block). A chunk through a register does not: it is one branch-free conditional load
// (a lane whose predicate is off reads zeros, as arch::load_if does) and one LDS store, so every load of a
// predicated copy is issued before the first store waits for one (s_waitcnt vmcnt(N), N > 0),
// where a branch per chunk (s_and_saveexec, s_cbranch_execz, load, s_waitcnt vmcnt(0), store)
// kept one load in flight.
template <int Bytes, bool Global, class T>
BBX_HOST_DEVICE void g2s_chunk_zfill(T const* src, T* dst, bool dma, bool pred) {
  using R = uint_bits_t<Bytes * 8>;
#if defined(BBX_AMD_LDS_DMA)
  if constexpr (lds_dma_width<Bytes>) {
    if (dma) {
      if (pred) {
        g2s_chunk<Bytes, Global>(src, dst, true);
      } else {
        *reinterpret_cast<R*>(static_cast<void*>(dst)) = R{};
      }
      return;
    }
  }
#endif
#if defined(__HIP_DEVICE_COMPILE__)
  // load_if without its select: a lane whose predicate is off reads detail::zero_chunk, which
  // holds the zeros it stores
  static_assert(sizeof(R) <= sizeof(detail::zero_chunk), "g2s_chunk_zfill: chunk wider than 64 bytes");
  (void)dma;
  R const* from = pred ? reinterpret_cast<R const*>(static_cast<void const*>(src))
                       : reinterpret_cast<R const*>(detail::zero_chunk);
  *reinterpret_cast<R*>(static_cast<void*>(dst)) = *from;
#else
  if (pred) {
    g2s_chunk<Bytes, Global>(src, dst, dma);
  } else {
    *reinterpret_cast<R*>(static_cast<void*>(dst)) = R{};
  }
#endif
}

// Chunk `e` (the 16 bytes at element e) of a tile that whole waves load, chunk c to element
// E * c of dst: `wave_dst` = dst + wave_e is the wave's first chunk (lane 0's), `lane` this lane's
// index in the wave. gfx950: one global_load_lds_dwordx4 per lane; gfx942: four dword loads,
// load j writing the wave block's words [64j, 64j + 64) in lane order.
template <class T, class SrcOf>
BBX_HOST_DEVICE void g2s_wave_chunk16(SrcOf const& src_of, T* dst, int e, [[maybe_unused]] T* wave_dst,
                                      [[maybe_unused]] int wave_e, [[maybe_unused]] int lane) {
#if defined(__HIP_DEVICE_COMPILE__) && defined(__gfx950__)
  global_load_lds<16, T>(src_of(e), wave_dst);
#elif defined(__HIP_DEVICE_COMPILE__) && defined(__gfx942__)
  BBX_UNROLL
  for (int j = 0; j < 4; ++j) {
    const int w = lane + 64 * j;  // word of the wave's 1 KiB block
    const int ew = wave_e + w * (4 / int(sizeof(T)));
    global_load_lds<4, T>(src_of(ew), wave_dst + 64 * j * (4 / int(sizeof(T))));
  }
#else
  *reinterpret_cast<uint_bits_t<128>*>(static_cast<void*>(dst + e)) =
      *reinterpret_cast<uint_bits_t<128> const*>(static_cast<void const*>(src_of(e)));
#endif
}

}  // namespace bbx::arch
