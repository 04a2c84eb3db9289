// bbx/tensor/access_hooks.hpp — where the tensor layer reports memory accesses to the CPU
// simulator's checker (out-of-bounds and shared-memory race checks).
//
// On the CPU target every element access through a gmem_ptr / smem_ptr goes through
// `detail::on_global_access` / `detail::on_shared_access`. They test one plain global flag
// (`access_hooks.enabled`) and, when it is set, call the installed hooks. The platform layer
// (bbx/platform/cpu) installs its checkers when checked mode is on, e.g.
//     bbx::sim::access_hooks.global = &bbx::sim::check_global_access;
//     bbx::sim::access_hooks.shared = &bbx::sim::check_shared_access;
//     bbx::sim::access_hooks.enabled = true;
// With nothing installed the hooks are no-ops (no link-time dependency on the simulator, so this
// header never conflicts with however the platform defines its checkers).
//
// `is_write` is exact for the algorithms (copy, fill, store, autovec_copy); a reference obtained
// by `t(i)` is reported as a read when it is formed (the access that follows may be a write),
// except in shared memory, where it goes to the `shared_ref` hook (direction unknown: the checker
// neither reports it as an uninitialised read nor counts it as a write).
// On GPU targets all of this compiles away.
#pragma once

#include <cstddef>
#if defined(BBX_TARGET_CPU)
#  include <source_location>
#endif

#include "bbx/config.hpp"

#if defined(BBX_TARGET_CPU)
namespace bbx::sim {
using access_hook_t = void (*)(const void* p, std::size_t bytes, bool is_write);
struct access_hooks_t {
  bool enabled = false;
  access_hook_t global = nullptr;
  access_hook_t shared = nullptr;
  access_hook_t shared_ref = nullptr;  // a reference formed; `is_write` is always false
};
inline access_hooks_t access_hooks{};
// The generated-code line of the element access the hooks are about to see: `Tensor::operator()`
// notes it (a defaulted std::source_location argument) and the checker takes it for its reports.
// One per host thread: a block's fibers switch only at barriers and collectives, never between
// an element access and its check.
inline thread_local std::source_location access_site{};
}  // namespace bbx::sim
#endif

// BBX_ACCESS_SITE: the trailing parameter of element-access operators that receives the caller's
// location on the simulator (nothing elsewhere); BBX_NOTE_ACCESS_SITE(it) records it when the
// iterator `it` reaches checked (global or shared) memory.
#if defined(BBX_TARGET_CPU)
#  define BBX_ACCESS_SITE , std::source_location access_site_ = std::source_location::current()
#  define BBX_NOTE_ACCESS_SITE(it) ::bbx::detail::note_access_site(it, access_site_)
#else
#  define BBX_ACCESS_SITE
#  define BBX_NOTE_ACCESS_SITE(it) ((void)0)
#endif

namespace bbx::detail {
BBX_HOST_DEVICE void on_global_access([[maybe_unused]] const void* p, [[maybe_unused]] std::size_t bytes,
                                      [[maybe_unused]] bool is_write) {
#if defined(BBX_TARGET_CPU)
  if (__builtin_expect(::bbx::sim::access_hooks.enabled, 0) && ::bbx::sim::access_hooks.global)
    ::bbx::sim::access_hooks.global(p, bytes, is_write);
#endif
}
BBX_HOST_DEVICE void on_shared_access([[maybe_unused]] const void* p, [[maybe_unused]] std::size_t bytes,
                                      [[maybe_unused]] bool is_write) {
#if defined(BBX_TARGET_CPU)
  if (__builtin_expect(::bbx::sim::access_hooks.enabled, 0) && ::bbx::sim::access_hooks.shared)
    ::bbx::sim::access_hooks.shared(p, bytes, is_write);
#endif
}
// A reference to shared memory was formed (`t(i)`): the access that follows may read or write.
BBX_HOST_DEVICE void on_shared_ref_access([[maybe_unused]] const void* p,
                                          [[maybe_unused]] std::size_t bytes) {
#if defined(BBX_TARGET_CPU)
  if (__builtin_expect(::bbx::sim::access_hooks.enabled, 0)) {
    if (::bbx::sim::access_hooks.shared_ref) ::bbx::sim::access_hooks.shared_ref(p, bytes, false);
    else if (::bbx::sim::access_hooks.shared) ::bbx::sim::access_hooks.shared(p, bytes, false);
  }
#endif
}
}  // namespace bbx::detail
