// bbx/platform/cpu/async_copy_hooks.hpp — asynchronous copies on the simulator, with NVIDIA's
// semantics (defined in platform/cpu/async_copy.hpp): the source is read at issue, the destination
// written when a wait retires the copy's group. See platform/async_copy_hooks.hpp.
#pragma once

#include <source_location>

#include "bbx/config.hpp"

// The simulator reports the source line of an asynchronous copy (checked mode): the copy
// functions of atom/copy_async.hpp pass it down.
#define BBX_COPY_SITE_PARAM , std::source_location site
#define BBX_COPY_SITE_ARG , site
#define BBX_COPY_SITE_DEFAULT , std::source_location site = std::source_location::current()

namespace bbx::sim {
// Defined in bbx/platform/cpu/async_copy.hpp.
inline void async_copy_issue(void* dst, const void* src, int bytes, std::source_location loc);
inline void async_copy_issue_zfill(void* dst, const void* src, int bytes, int src_bytes, std::source_location loc);
inline void async_copy_commit();
inline void async_copy_wait(int pending_groups, std::source_location loc);
}  // namespace bbx::sim

namespace bbx::arch {

template <int Bytes, bool Global, class Op>
inline void cp_async_shared_global(void const* gmem_src, void* smem_dst,
                                   std::source_location loc = std::source_location::current()) {
  ::bbx::sim::async_copy_issue(smem_dst, gmem_src, Bytes, loc);
}

// cp.async with its source-size operand: reads src_bytes (0..Bytes) and zero-fills the rest.
template <int Bytes, bool Global, class Op>
inline void cp_async_shared_global_zfill(void const* gmem_src, void* smem_dst, int src_bytes,
                                         std::source_location loc = std::source_location::current()) {
  ::bbx::sim::async_copy_issue_zfill(smem_dst, gmem_src, Bytes, src_bytes, loc);
}

template <int Bytes, class Op>
inline void global_load_lds(void const* gmem_src, void* lds_base) {
  (void)gmem_src, (void)lds_base;
  static_assert(dependent_false<Op>, "global_load_lds is an AMD instruction");
}

// s_waitcnt vmcnt is AMD's: the simulator's copies are retired by the group waits.
template <int N>
inline void amd_wait_vmcnt() {
  static_assert(N >= 0 && N < 64, "vmcnt is 0..63");
}

inline void cp_async_commit_group() { ::bbx::sim::async_copy_commit(); }
template <class N>
inline void cp_async_wait_group(N const& n, std::source_location loc = std::source_location::current()) {
  ::bbx::sim::async_copy_wait(static_cast<int>(n), loc);
}
inline void cp_async_wait_all(std::source_location loc = std::source_location::current()) {
  ::bbx::sim::async_copy_commit();
  ::bbx::sim::async_copy_wait(0, loc);
}

// ---- global -> shared chunks (atom/copy_async.hpp, tile/st.hpp) ----------------------------
template <int Bytes>
inline constexpr bool lds_dma_width = false;  // AMD's global_load_lds
template <int Bytes, class T>
inline bool lds_wave_contiguous(T*) {
  return false;
}

// One chunk of `Bytes` bytes: the simulator's cp.async, whatever the width.
template <int Bytes, bool Global, class T>
inline void g2s_chunk(T const* src, T* dst, bool, std::source_location site) {
  ::bbx::sim::async_copy_issue(dst, src, Bytes, site);
}

// One chunk of `Bytes` bytes under a predicate: the chunk when `pred`, else zeros (the
// simulator's cp.async with a source size of 0, retired by the group waits like any copy).
template <int Bytes, bool Global, class T>
inline void g2s_chunk_zfill(T const* src, T* dst, bool, bool pred, std::source_location site) {
  ::bbx::sim::async_copy_issue_zfill(dst, src, Bytes, pred ? Bytes : 0, site);
}

// Chunk `e` (the 16 bytes at element e) of a tile that whole waves load: the simulator's cp.async.
template <class T, class SrcOf>
inline void g2s_wave_chunk16(SrcOf const& src_of, T* dst, int e, T*, int, int,
                             std::source_location site = std::source_location::current()) {
  ::bbx::sim::async_copy_issue(dst + e, src_of(e), 16, site);
}

}  // namespace bbx::arch
