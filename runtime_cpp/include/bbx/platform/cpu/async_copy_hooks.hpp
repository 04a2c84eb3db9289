// bbx/platform/cpu/async_copy_hooks.hpp — asynchronous copies on the simulator, with NVIDIA's
// semantics (defined in platform/cpu/async_copy.hpp): the source is read at issue, the destination
// written when a wait retires the copy's group. See platform/async_copy_hooks.hpp.
#pragma once

#include <source_location>

#include "bbx/config.hpp"

namespace bbx::sim {
// Defined in bbx/platform/cpu/async_copy.hpp.
inline void async_copy_issue(void* dst, const void* src, int bytes, std::source_location loc);
inline void async_copy_commit();
inline void async_copy_wait(int pending_groups, std::source_location loc);
}  // namespace bbx::sim

namespace bbx::arch {

template <int Bytes, bool Global, class Op>
inline void cp_async_shared_global(void const* gmem_src, void* smem_dst,
                                   std::source_location loc = std::source_location::current()) {
  ::bbx::sim::async_copy_issue(smem_dst, gmem_src, Bytes, loc);
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

}  // namespace bbx::arch
