// bbx/platform/cpu/check.hpp — the simulator's checked mode (BBX_SIM_CHECK=1 or
// bbx::sim::set_checked(true)):
//   * global bounds: host code registers every buffer a kernel may touch with
//     register_allocation() (or a ScopedAllocation); tensor code calls check_global_access()
//     before each global load/store. An access not fully inside one registered allocation fails.
//   * shared memory: tensor code calls check_shared_access() before each shared load/store.
//     Each byte remembers its last writer and reader(s) in the current barrier interval
//     (epoch); a write/read by one thread and a write by another in the same interval is a
//     race; reading a byte never written in this block is an uninitialised read.
// Both hooks cost one branch when checked mode is off.
//
// Always (not only in checked mode), a launch made through a specialization's entry point has its
// tensors' spans registered (register_launch_span, bbx::abi::SimSpan); a global access outside
// all of them is a kernel error naming the block, thread, access site and the launch
// (launch_bounds_outside), before the access can corrupt the host process. See
// bbx/platform/access_hooks.hpp for the cost.
#pragma once

#include <cinttypes>
#include <cstdio>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <source_location>
#include <string>

#include "bbx/platform/cpu/sim.hpp"
#include "bbx/platform/access_hooks.hpp"

namespace bbx::sim {

namespace detail {
struct Registry {
  std::shared_mutex mu;
  std::map<std::uintptr_t, std::size_t> allocs;  // base -> bytes
};
inline Registry& registry() {
  static Registry r;
  return r;
}
BBX_SIM_FN std::string hex(const void* p);
#if defined(BBX_SIM_DEFINE_RUNTIME)
BBX_SIM_FN std::string hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}
#endif  // BBX_SIM_DEFINE_RUNTIME
}  // namespace detail

// Registering a base twice (one tensor passed as two arguments, or two views of one buffer
// that start at the same address) keeps the larger extent.
BBX_SIM_FN void register_allocation(const void* p, std::size_t bytes);
BBX_SIM_FN void unregister_allocation(const void* p);
BBX_SIM_FN void clear_allocations();
#if defined(BBX_SIM_DEFINE_RUNTIME)
BBX_SIM_FN void register_allocation(const void* p, std::size_t bytes) {
  auto& r = detail::registry();
  std::unique_lock lk(r.mu);
  auto [it, inserted] = r.allocs.try_emplace(reinterpret_cast<std::uintptr_t>(p), bytes);
  if (!inserted && it->second < bytes) it->second = bytes;
}
BBX_SIM_FN void unregister_allocation(const void* p) {
  auto& r = detail::registry();
  std::unique_lock lk(r.mu);
  r.allocs.erase(reinterpret_cast<std::uintptr_t>(p));
}
BBX_SIM_FN void clear_allocations() {
  auto& r = detail::registry();
  std::unique_lock lk(r.mu);
  r.allocs.clear();
}
#endif  // BBX_SIM_DEFINE_RUNTIME
// The spans of a launch's tensors (always checked, see the top of this file): the entry point
// registers each tensor argument for the duration of its call; a raw pointer argument (whose
// extent nobody knows) registers "unbounded", which turns the check off while it runs.
BBX_SIM_FN void register_launch_span(const void* p, std::size_t bytes);
BBX_SIM_FN void unregister_launch_span(const void* p, std::size_t bytes);
BBX_SIM_FN void register_unbounded();
BBX_SIM_FN void unregister_unbounded();
namespace detail {
inline std::mutex& launch_bounds_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace detail
#if defined(BBX_SIM_DEFINE_RUNTIME)
BBX_SIM_FN void register_launch_span(const void* p, std::size_t bytes) {
  if (bytes == 0) return;  // an empty tensor: nothing of it may be accessed
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  auto& b = launch_bounds;
  std::lock_guard<std::mutex> lk(detail::launch_bounds_mutex());
  for (int i = 0; i < launch_bounds_t::capacity; ++i) {
    if (b.hi[i].load(std::memory_order_relaxed) != 0) continue;
    b.hi[i].store(lo + bytes, std::memory_order_relaxed);
    b.lo[i].store(lo, std::memory_order_relaxed);
    if (b.count.load(std::memory_order_relaxed) <= i) b.count.store(i + 1, std::memory_order_release);
    return;
  }
  b.unbounded.fetch_add(1, std::memory_order_relaxed);  // more spans than slots: check nothing
}
BBX_SIM_FN void unregister_launch_span(const void* p, std::size_t bytes) {
  if (bytes == 0) return;
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  auto& b = launch_bounds;
  std::lock_guard<std::mutex> lk(detail::launch_bounds_mutex());
  const int n = b.count.load(std::memory_order_relaxed);
  for (int i = 0; i < n; ++i) {
    if (b.lo[i].load(std::memory_order_relaxed) != lo ||
        b.hi[i].load(std::memory_order_relaxed) != lo + bytes)
      continue;
    b.lo[i].store(0, std::memory_order_relaxed);
    b.hi[i].store(0, std::memory_order_relaxed);
    int m = n;
    while (m > 0 && b.hi[m - 1].load(std::memory_order_relaxed) == 0) --m;
    b.count.store(m, std::memory_order_release);
    return;
  }
  b.unbounded.fetch_sub(1, std::memory_order_relaxed);  // it had overflowed the slots
}
BBX_SIM_FN void register_unbounded() { launch_bounds.unbounded.fetch_add(1, std::memory_order_relaxed); }
BBX_SIM_FN void unregister_unbounded() { launch_bounds.unbounded.fetch_sub(1, std::memory_order_relaxed); }
#endif  // BBX_SIM_DEFINE_RUNTIME

// RAII registration of a host buffer as "global memory" for checked mode.
struct ScopedAllocation {
  const void* p;
  ScopedAllocation(const void* ptr, std::size_t bytes) : p(ptr) { register_allocation(ptr, bytes); }
  ~ScopedAllocation() { unregister_allocation(p); }
  ScopedAllocation(const ScopedAllocation&) = delete;
  ScopedAllocation& operator=(const ScopedAllocation&) = delete;
};

inline bool checked() { return config().checked; }

// Installed by bbx/platform/cpu/async_copy.hpp: in checked mode, every shared access is first
// shown to it, so that reading or writing the destination of an asynchronous copy (cp.async)
// before the copy was waited for is reported.
using async_copy_check_t = void (*)(const void* p, std::size_t bytes, bool is_write,
                                    const std::source_location& loc);
inline async_copy_check_t async_copy_check = nullptr;

inline void check_shared_access(const void* p, std::size_t bytes, bool is_write,
                                std::source_location loc = std::source_location::current());

namespace detail {
inline bool in_dynamic_smem(const void* p) {
  Thread* t = tl_thread;
  if (!t) return false;
  const char* c = static_cast<const char*>(p);
  return c >= t->blk->smem && c < t->blk->smem + t->blk->smem_cap;
}

BBX_SIM_FN void check_global_slow(const void* p, std::size_t bytes, bool is_write,
                                  const std::source_location& loc);
BBX_SIM_FN void check_shared_slow(const void* p, std::size_t bytes, bool is_write, bool atomic,
                                  const std::source_location& loc, bool ref = false);
#if defined(BBX_SIM_DEFINE_RUNTIME)
BBX_SIM_FN void check_global_slow(const void* p, std::size_t bytes, bool is_write,
                                  const std::source_location& loc) {
  if (in_dynamic_smem(p)) {  // a shared pointer reached a generic access: check it as shared
    check_shared_access(p, bytes, is_write, loc);
    return;
  }
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  auto& r = registry();
  std::shared_lock lk(r.mu);
  auto it = r.allocs.upper_bound(a);
  std::string near;
  if (it != r.allocs.begin()) {
    auto prev = std::prev(it);
    if (a + bytes <= prev->first + prev->second) return;  // in bounds
    if (a < prev->first + prev->second)
      near = " (straddles the end of allocation " + hex(reinterpret_cast<void*>(prev->first)) +
             " of " + std::to_string(prev->second) + " bytes at offset " +
             std::to_string(a - prev->first) + ")";
    else
      near = " (" + std::to_string(a - (prev->first + prev->second)) +
             " bytes past the end of allocation " + hex(reinterpret_cast<void*>(prev->first)) +
             " of " + std::to_string(prev->second) + " bytes)";
  }
  if (near.empty() && it != r.allocs.end())
    near = " (" + std::to_string(it->first - a) + " bytes before allocation " +
           hex(reinterpret_cast<void*>(it->first)) + " of " + std::to_string(it->second) + " bytes)";
  if (near.empty()) near = " (no allocation registered with bbx::sim::register_allocation)";
  lk.unlock();
  kernel_error(std::string("out-of-bounds global ") + (is_write ? "write" : "read") + " of " +
               std::to_string(bytes) + " bytes at " + hex(p) + near + " at " + site_str(loc));
}

// `ref`: a reference was formed (tensor element access `t(i)`) and the direction of the access
// that follows is unknown. It is checked as a read, except that a never-written byte is not an
// error: the reference is typically assigned to (`s[i] = v` in the DSL), so it counts as a write
// by this thread in this barrier interval. Another thread's read or write of the byte before the
// next sync_threads is then a race, as for an explicit store. (A reference to a byte written
// before stays a read: a second element-wise write is not seen as one.)
BBX_SIM_FN void check_shared_slow(const void* p, std::size_t bytes, bool is_write, bool atomic,
                                  const std::source_location& loc, bool ref) {
  Thread& t = cur("check_shared_access");
  Block& b = *t.blk;
  const char* c = static_cast<const char*>(p);
  const bool dyn = c >= b.smem && c < b.smem + b.smem_cap;
  if (dyn && c + bytes > b.smem + b.smem_bytes)
    kernel_error(std::string("out-of-bounds shared ") + (is_write ? "write" : "read") + " of " +
                 std::to_string(bytes) + " bytes at dynamic shared offset " +
                 std::to_string(c - b.smem) + " (the launch has " + std::to_string(b.smem_bytes) +
                 " bytes of dynamic shared memory) at " + site_str(loc));
  for (std::size_t i = 0; i < bytes; ++i) {
    ShadowByte& s = dyn ? b.shadow[static_cast<std::size_t>(c + i - b.smem)]
                        : b.shadow_other[reinterpret_cast<std::uintptr_t>(c + i)];
    const bool written = s.w_epoch >= b.first_epoch;
    auto where = [&]() {
      return (dyn ? "dynamic shared offset " + std::to_string(c + i - b.smem)
                  : "shared address " + hex(c + i)) +
             " (" + hex(c + i) + ")";
    };
    if (ref && !written) {
      s.w_epoch = b.epoch;
      s.writer = t.tid;
      s.wref = true;
      s.wloc = loc;
      continue;
    }
    if ((!is_write || atomic) && !written)
      kernel_error("read of uninitialised shared memory at " + where() + " at " + site_str(loc) +
                   ": no thread of this block wrote it");
    if (!atomic) {
      const bool raced = written && s.w_epoch == b.epoch && s.writer != t.tid;
      if (raced && (ref || s.wref))
        // Element references on one side at least: which of the two wrote is not known.
        kernel_error("shared-memory race at " + where() + ": thread " + std::to_string(s.writer) +
                     " and then thread " + std::to_string(t.tid) + " access it (element accesses, " +
                     "one of them a write) with no sync_threads in between" +
                     (s.wloc.line() == 0 && loc.line() == 0
                          ? std::string()
                          : ", at " + site_str(s.wloc) + " and " + site_str(loc)));
      if (raced)
        kernel_error(std::string("shared-memory race (") +
                     (is_write ? "write after write" : "read after write") + ") at " + where() +
                     ": thread " + std::to_string(t.tid) + (is_write ? " writes" : " reads") +
                     " at " + site_str(loc) + ", " +
                     (s.writer == -3 ? std::string("another thread") : "thread " + std::to_string(s.writer)) +
                     (s.writer == -3 ? " (atomically)" : "") + " wrote at " + site_str(s.wloc) + " with no sync_threads in between");
      if (is_write && s.r_epoch == b.epoch && s.r_epoch >= b.first_epoch && s.reader != t.tid)
        kernel_error("shared-memory race (write after read) at " + where() + ": thread " +
                     std::to_string(t.tid) + " writes at " + site_str(loc) + ", " +
                     (s.reader == -2 ? std::string("other threads") : "thread " + std::to_string(s.reader)) +
                     " read at " + site_str(s.rloc) + " with no sync_threads in between");
    }
    if (is_write) {
      s.w_epoch = b.epoch;
      s.writer = atomic ? -3 : t.tid;
      s.wref = false;
      s.wloc = loc;
    } else {
      if (s.r_epoch != b.epoch) {
        s.r_epoch = b.epoch;
        s.reader = t.tid;
        s.rloc = loc;
      } else if (s.reader != t.tid) {
        s.reader = -2;
      }
    }
  }
}
#endif  // BBX_SIM_DEFINE_RUNTIME
// Where an access comes from: the element access's generated line when `Tensor::operator()`
// noted one (taken, so that it is not reused), else `loc`.
inline std::source_location access_site_or(const std::source_location& loc) {
  std::source_location site = ::bbx::sim::access_site;
  ::bbx::sim::access_site = std::source_location{};
  return site.line() != 0 ? site : loc;
}
}  // namespace detail

namespace detail {
// A global access outside every span of the launch (checked mode off): a kernel error, unless
// the pointer is into the block's dynamic shared memory (a shared pointer in a generic access).
// `what`: "read", "write" or "access" (an element reference, whose direction is not known).
BBX_SIM_FN void launch_bounds_report(const void* p, std::size_t bytes, const char* what,
                                     const std::source_location& loc);
#if defined(BBX_SIM_DEFINE_RUNTIME)
BBX_SIM_FN void launch_bounds_report(const void* p, std::size_t bytes, const char* what,
                                     const std::source_location& loc) {
  if (in_dynamic_smem(p) || inside_launch_bounds(p, bytes)) return;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const auto& b = launch_bounds;
  // the nearest tensor: the one that starts last at or below the address, else the first above
  std::uintptr_t below = 0, below_hi = 0, above = 0, above_hi = 0;
  for (int i = 0, n = b.count.load(std::memory_order_relaxed); i < n; ++i) {
    const std::uintptr_t lo = b.lo[i].load(std::memory_order_relaxed);
    const std::uintptr_t hi = b.hi[i].load(std::memory_order_relaxed);
    if (hi == 0) continue;
    if (lo <= a && lo >= below) below = lo, below_hi = hi;
    if (lo > a && (above == 0 || lo < above)) above = lo, above_hi = hi;
  }
  auto tensor = [](std::uintptr_t lo, std::uintptr_t hi) {
    return "the tensor at " + hex(reinterpret_cast<void*>(lo)) + " of " + std::to_string(hi - lo) +
           " bytes";
  };
  std::string near;
  if (below_hi != 0 && a < below_hi)
    near = "straddles the end of " + tensor(below, below_hi) + " at offset " + std::to_string(a - below);
  else if (below_hi != 0 && (above_hi == 0 || a - below_hi <= above - a))
    near = std::to_string(a - below_hi) + " bytes past the end of " + tensor(below, below_hi);
  else if (above_hi != 0)
    near = std::to_string(above - a) + " bytes before " + tensor(above, above_hi);
  const std::source_location at = access_site_or(loc);
  const Thread* t = tl_thread;
  kernel_error(std::string("out-of-bounds global ") + what + " of " + std::to_string(bytes) +
               " bytes at " + hex(p) + ", outside every tensor of the launch" +
               (near.empty() ? "" : " (" + near + ")") + " at " + site_str(at) +
               (t ? t->blk->launched() : std::string()) +
               "; the access was not made (BBX_SIM_CHECK=1 also checks shared memory)");
}
#endif  // BBX_SIM_DEFINE_RUNTIME
}  // namespace detail

// The access_hooks `outside` hook (installed at every launch).
inline void launch_bounds_outside(const void* p, std::size_t bytes, bool is_write) {
  detail::launch_bounds_report(p, bytes, is_write ? "write" : "read", std::source_location{});
}
inline void launch_bounds_outside_ref(const void* p, std::size_t bytes, bool) {
  detail::launch_bounds_report(p, bytes, "access", std::source_location{});
}

// Tensor code calls this before every global-memory access on the CPU target.
inline void check_global_access(const void* p, std::size_t bytes, bool is_write,
                                std::source_location loc = std::source_location::current()) {
  if (!config().checked) [[likely]] {
    if (!inside_launch_bounds(p, bytes)) [[unlikely]]
      detail::launch_bounds_report(p, bytes, is_write ? "write" : "read", loc);
    return;
  }
  detail::check_global_slow(p, bytes, is_write, detail::access_site_or(loc));
}

// Tensor code calls this before every shared-memory access on the CPU target.
inline void check_shared_access(const void* p, std::size_t bytes, bool is_write,
                                std::source_location loc) {
  if (!config().checked) [[likely]]
    return;
  const std::source_location at = detail::access_site_or(loc);
  if (async_copy_check) async_copy_check(p, bytes, is_write, at);
  detail::check_shared_slow(p, bytes, is_write, false, at);
}

// A reference to shared memory was formed; see check_shared_slow's `ref`.
inline void check_shared_ref_access(const void* p, std::size_t bytes,
                                    std::source_location loc = std::source_location::current()) {
  if (!config().checked) [[likely]]
    return;
  const std::source_location at = detail::access_site_or(loc);
  if (async_copy_check) async_copy_check(p, bytes, false, at);
  detail::check_shared_slow(p, bytes, false, false, at, true);
}

// Atomics: bounds and initialisation are checked, but concurrent atomics are not races. Not
// against the launch bounds: an atomic's raw pointer may be into a kernel's static shared
// memory (host thread-local storage here), which the bounds cannot tell from global memory.
inline void check_atomic_access(const void* p, std::size_t bytes,
                                std::source_location loc = std::source_location::current()) {
  if (!config().checked) [[likely]]
    return;
  const std::source_location at = detail::access_site_or(loc);
  if (detail::in_dynamic_smem(p)) detail::check_shared_slow(p, bytes, true, true, at);
  else detail::check_global_slow(p, bytes, true, at);
}

}  // namespace bbx::sim
