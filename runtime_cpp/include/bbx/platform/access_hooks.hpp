// bbx/platform/access_hooks.hpp — where the tensor layer reports memory accesses to the CPU
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
// Launch bounds (always on, simulator): a specialization's entry point registers the bytes each
// tensor argument spans (`launch_bounds`, bbx::abi::SimSpan) while its launches run. With spans
// registered and checked mode off, every global access is compared with them — a few compares
// per access (per vector for copies), no lock — and one outside all of them goes to the
// `outside` hook, which makes it a kernel error (a write past a tensor would otherwise corrupt the
// host process). With nothing registered (a C++ program launching kernels itself) nothing is
// checked.
//
// `is_write` is exact for the algorithms (copy, fill, store, autovec_copy); a reference obtained
// by `t(i)` is reported as a read when it is formed (the access that follows may be a write),
// except in shared memory, where it goes to the `shared_ref` hook (direction unknown: the checker
// neither reports it as an uninitialised read nor counts it as a write).
// On GPU targets all of this compiles away.
#pragma once

#include <cstddef>

#include "bbx/config.hpp"

#if defined(BBX_TARGET_CPU)
#  include <atomic>
#  include <cstdint>
#  include <source_location>
#  include <type_traits>
#endif

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

// The spans of the tensors of the launches running now (see above). Registration (rare: per
// tensor argument per call) takes a lock; the check reads the slots without one. A slot is
// [lo, hi); a free slot is [0, 0). `count` is one past the last slot in use; `unbounded` counts
// registrations that allow any address (a raw pointer argument, or more spans than slots).
struct launch_bounds_t {
  static constexpr int capacity = 64;
  std::atomic<int> count{0};
  std::atomic<int> unbounded{0};
  std::atomic<std::uintptr_t> lo[capacity] = {};
  std::atomic<std::uintptr_t> hi[capacity] = {};
  access_hook_t outside = nullptr;      // an access outside every span (installed per launch)
  access_hook_t outside_ref = nullptr;  // the same for an element reference (`t(i)`)
};
inline launch_bounds_t launch_bounds{};

// Whether [p, p + bytes) lies inside a registered span, or nothing is registered.
inline bool inside_launch_bounds(const void* p, std::size_t bytes) {
  const int n = launch_bounds.count.load(std::memory_order_relaxed);
  if (n == 0 || launch_bounds.unbounded.load(std::memory_order_relaxed) != 0) return true;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  for (int i = 0; i < n; ++i) {
    const std::uintptr_t lo = launch_bounds.lo[i].load(std::memory_order_relaxed);
    const std::uintptr_t hi = launch_bounds.hi[i].load(std::memory_order_relaxed);
    if (a >= lo && a < hi && bytes <= hi - a) return true;
  }
  return false;
}
// The generated-code line of the element access the hooks are about to see: `Tensor::operator()`
// notes it (a defaulted std::source_location argument) and the checker takes it for its reports.
// One per host thread: a block's fibers switch only at barriers and collectives, never between
// an element access and its check.
inline thread_local std::source_location access_site{};
}  // namespace bbx::sim

namespace bbx::detail {
// See BBX_NOTE_ACCESS_SITE: only accesses the checker sees (global or shared memory: a mem_ptr
// whose space is not rmem) note their site.
template <class It>
constexpr void note_access_site(It const&, std::source_location const& site) {
  if constexpr (requires { It::space; }) {
    if constexpr (It::space != std::remove_cv_t<decltype(It::space)>::rmem) {
      if (!std::is_constant_evaluated()) ::bbx::sim::access_site = site;
    }
  }
}
}  // namespace bbx::detail
#endif

// BBX_ACCESS_SITE: the trailing parameter of element-access operators (and of copy/autovec_copy)
// that receives the caller's location on the simulator (nothing elsewhere);
// BBX_NOTE_ACCESS_SITE(it) records it when the iterator `it` reaches checked (global or shared)
// memory, BBX_NOTE_SITE() always.
#if defined(BBX_TARGET_CPU)
#  define BBX_ACCESS_SITE , std::source_location access_site_ = std::source_location::current()
#  define BBX_NOTE_ACCESS_SITE(it) ::bbx::detail::note_access_site(it, access_site_)
#  define BBX_NOTE_SITE() (::bbx::sim::access_site = access_site_)
#else
#  define BBX_ACCESS_SITE
#  define BBX_NOTE_ACCESS_SITE(it) ((void)0)
#  define BBX_NOTE_SITE() ((void)0)
#endif

namespace bbx::detail {
BBX_HOST_DEVICE void on_global_access([[maybe_unused]] const void* p, [[maybe_unused]] std::size_t bytes,
                                      [[maybe_unused]] bool is_write) {
#if defined(BBX_TARGET_CPU)
  if (__builtin_expect(::bbx::sim::access_hooks.enabled, 0)) {
    if (::bbx::sim::access_hooks.global) ::bbx::sim::access_hooks.global(p, bytes, is_write);
  } else if (!::bbx::sim::inside_launch_bounds(p, bytes)) [[unlikely]] {
    if (::bbx::sim::launch_bounds.outside) ::bbx::sim::launch_bounds.outside(p, bytes, is_write);
  }
#endif
}
BBX_HOST_DEVICE void on_shared_access([[maybe_unused]] const void* p, [[maybe_unused]] std::size_t bytes,
                                      [[maybe_unused]] bool is_write) {
#if defined(BBX_TARGET_CPU)
  if (__builtin_expect(::bbx::sim::access_hooks.enabled, 0) && ::bbx::sim::access_hooks.shared)
    ::bbx::sim::access_hooks.shared(p, bytes, is_write);
#endif
}
// A reference to global memory was formed (`t(i)`): checked as a read in checked mode; outside
// the launch's bounds, reported as an access of unknown direction.
BBX_HOST_DEVICE void on_global_ref_access([[maybe_unused]] const void* p,
                                          [[maybe_unused]] std::size_t bytes) {
#if defined(BBX_TARGET_CPU)
  if (__builtin_expect(::bbx::sim::access_hooks.enabled, 0)) {
    if (::bbx::sim::access_hooks.global) ::bbx::sim::access_hooks.global(p, bytes, false);
  } else if (!::bbx::sim::inside_launch_bounds(p, bytes)) [[unlikely]] {
    if (::bbx::sim::launch_bounds.outside_ref) ::bbx::sim::launch_bounds.outside_ref(p, bytes, false);
  }
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
