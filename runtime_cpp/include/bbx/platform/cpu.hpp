// bbx/platform/cpu.hpp — the platform API on the CPU reference simulator (see cpu/sim.hpp for
// the execution model). Kernels are plain functions (BBX_GLOBAL is empty); launch() runs the
// whole grid synchronously and throws bbx::sim::SimError on any kernel error.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>

#include "bbx/config.hpp"
#include "bbx/platform/common.hpp"
#include "bbx/platform/lane_renaming.hpp"
#include "bbx/platform/cpu/fiber.hpp"
#include "bbx/platform/cpu/sim.hpp"
#include "bbx/platform/cpu/check.hpp"
#if __has_include("bbx/platform/access_hooks.hpp")
#  include "bbx/platform/access_hooks.hpp"
#  define BBX_SIM_HAS_ACCESS_HOOKS 1
#endif

namespace bbx {

namespace sim::detail {
// Route the tensor layer's access hooks (bbx/platform/access_hooks.hpp) to the checkers when
// checked mode is on; called at every launch. Out of line with the simulator's runtime object
// (sim.hpp), so that units do not emit the hooks.
BBX_SIM_FN void sync_access_hooks();
#if defined(BBX_SIM_DEFINE_RUNTIME)
#if defined(BBX_SIM_HAS_ACCESS_HOOKS)
inline void tensor_global_hook(const void* p, std::size_t bytes, bool is_write) {
  check_global_access(p, bytes, is_write, std::source_location{});
}
inline void tensor_shared_hook(const void* p, std::size_t bytes, bool is_write) {
  check_shared_access(p, bytes, is_write, std::source_location{});
}
inline void tensor_shared_ref_hook(const void* p, std::size_t bytes, bool) {
  check_shared_ref_access(p, bytes, std::source_location{});
}
#endif
BBX_SIM_FN void sync_access_hooks() {
#if defined(BBX_SIM_HAS_ACCESS_HOOKS)
  launch_bounds.outside = &launch_bounds_outside;
  launch_bounds.outside_ref = &launch_bounds_outside_ref;
  if (config().checked) {
    access_hooks.global = &tensor_global_hook;
    access_hooks.shared = &tensor_shared_hook;
    access_hooks.shared_ref = &tensor_shared_ref_hook;
    access_hooks.enabled = true;
  } else if (access_hooks.global == &tensor_global_hook) {
    access_hooks.enabled = false;
  }
#endif
}
#endif  // BBX_SIM_DEFINE_RUNTIME
}  // namespace sim::detail

namespace sim {
// The grid of a launch and where the launch is written: converting the caller's dim3 records the
// call's source location, which kernel errors name ("in the kernel launched at ...").
struct LaunchGrid {
  dim3 d;
  std::source_location site;
  LaunchGrid(dim3 g, std::source_location loc = std::source_location::current())  // NOLINT
      : d(g), site(loc) {}
};
}  // namespace sim

// Runs kernel(args...) for every thread of the grid; returns when the grid has finished.
// `kernel` is a plain function (or any callable); arguments are copied once per launch and
// passed by value to every thread. The stream is ignored (everything is synchronous). A grid
// with a zero extent (an empty problem) runs nothing, as on every target.
// `options.cooperative`: every block is resident at once, each on a host thread of its own (at
// most one block per CU of the simulated architecture, as a cooperative launch on the GPU is
// refused when the grid does not fit), so blocks may wait for each other through global memory;
// `options.smem_carveout` has no meaning here.
template <class Kernel, class... Args>
void launch(launch_options options, Kernel kernel, sim::LaunchGrid grid, dim3 block,
            std::size_t smem_bytes,
            Stream /*stream*/, Args&&... args) {
  struct Payload {
    Kernel k;
    std::tuple<std::decay_t<Args>...> a;
  };
  const Payload payload{kernel, std::tuple<std::decay_t<Args>...>(std::forward<Args>(args)...)};
  auto invoke = [](const void* p) {
    const auto& pl = *static_cast<const Payload*>(p);
    std::apply([&](const auto&... a) { pl.k(a...); }, pl.a);
  };
  sim::detail::sync_access_hooks();
  sim::detail::run_grid(+invoke, &payload, grid.d, block, smem_bytes, grid.site,
                        options.cooperative);
}
template <class Kernel, class... Args>
void launch(Kernel kernel, sim::LaunchGrid grid, dim3 block, std::size_t smem_bytes,
            Stream stream, Args&&... args) {
  launch(launch_options{}, kernel, grid, block, smem_bytes, stream, std::forward<Args>(args)...);
}

namespace arch {

namespace detail {
// The kernel's linear thread id: the simulator's thread slot is the physical lane, renamed to
// the logical one under BBX_LANE_RENAMING (platform/lane_renaming.hpp, whose preconditions are
// checked here).
template <bool Renamed = ::bbx::detail::lane_renaming>
inline int logical_tid(sim::detail::Thread& t, const char* what) {
  if constexpr (!Renamed) {
    return t.tid;
  } else {
    const auto& b = *t.blk;
    if (b.wave != 64 || b.nthreads % 64 != 0 || (b.bdim.x % 64 != 0 && (b.bdim.y != 1 || b.bdim.z != 1)))
      sim::kernel_error(std::string(what) + ": lane renaming (the m16n8-exact MMA mode) needs 64-lane waves, "
                        "whole waves and a 1-D block or blockDim.x % 64 == 0");
    return bbx::detail::logical_thread<true>(t.tid);
  }
}
}  // namespace detail

template <bool Renamed = ::bbx::detail::lane_renaming>
inline dim3 thread_idx() {
  auto& t = sim::detail::cur("thread_idx");
  if constexpr (!Renamed) {
    return t.idx;
  } else {
    const int i = detail::logical_tid<true>(t, "thread_idx");
    const dim3 bd = t.blk->bdim;
    return dim3(i % bd.x, (i / bd.x) % bd.y, i / (bd.x * bd.y));
  }
}
inline dim3 block_idx() { return sim::detail::cur("block_idx").blk->bidx; }
inline dim3 block_dim() { return sim::detail::cur("block_dim").blk->bdim; }
inline dim3 grid_dim() { return sim::detail::cur("grid_dim").blk->gdim; }
// Lane within the DSL's logical 32-lane warp and the warp's index in the block.
template <bool Renamed = ::bbx::detail::lane_renaming>
inline int lane_idx() { return detail::logical_tid<Renamed>(sim::detail::cur("lane_idx"), "lane_idx") & 31; }
template <bool Renamed = ::bbx::detail::lane_renaming>
inline int warp_idx() { return detail::logical_tid<Renamed>(sim::detail::cur("warp_idx"), "warp_idx") >> 5; }
inline int wavefront_size() {
  sim::detail::Thread* t = sim::detail::tl_thread;
  return t ? t->blk->wave : sim::config().wave_size;
}

inline void sync_threads(std::source_location loc = std::source_location::current()) {
  sim::detail::barrier(loc);
}
inline void barrier(std::source_location loc = std::source_location::current()) {
  sim::detail::barrier(loc);
}

template <class T>
inline T* dynamic_smem() {
  return reinterpret_cast<T*>(sim::detail::cur("dynamic_smem").blk->smem);
}

using std::printf;

namespace detail {
// Shuffle as a wave collective: each lane supplies its value and the lane it reads (index
// within the group); lane ids are positions in the thread's 32-lane warp (widths <= 32) or
// 64-lane wave (width 64).
template <class T>
struct ShflIn {
  T v;
  int src;
};

template <bool Renamed, class T, class SrcFn>
inline T shuffle_impl(const T& v, int width, SrcFn src_of, const char* what,
                      const std::source_location& loc) {
  static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) <= 8),
                "bbx shuffles move trivially copyable values of at most 8 bytes");
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16 && width != 32 &&
      width != 64) [[unlikely]]
    sim::kernel_error(std::string(what) + ": width " + std::to_string(width) +
                      " is not a power of two in [1, 64]");
  auto& t = sim::detail::cur(what);
  // Under lane renaming a logical warp is spread over its wave: exchange over the wave, the
  // source found among logical lanes and read from its physical lane.
  const int group = width == 64 || Renamed ? 64 : 32;
  int src = 0;
  if constexpr (Renamed) {
    const int l = logical_tid<true>(t, what) & 63;
    src = exact_physical_lane(width == 64 ? src_of(l) : (l & 32) + src_of(l & 31));
  } else {
    src = src_of(t.tid & (group - 1));
  }
  const ShflIn<T> in{v, src};
  return sim::wave_collective<ShflIn<T>, T>(
      in, group,
      [what](const ShflIn<T>* const* ins, T* const* outs, int n) {
        for (int i = 0; i < n; ++i) {
          if (!ins[i]) continue;
          const int s = ins[i]->src;
          if (!ins[s]) {
            auto& me = sim::detail::cur(what);
            sim::kernel_error(std::string(what) + ": lane " + std::to_string(i) + " (thread " +
                              std::to_string(me.tid / n * n + i) + ") reads lane " +
                              std::to_string(s) + ", which is past the end of the block");
          }
          *outs[i] = ins[s]->v;
        }
      },
      what, loc);
}
}  // namespace detail

template <bool Renamed = ::bbx::detail::lane_renaming, class T>
inline T shuffle_sync(const T& v, int src_lane, int width = 32,
                      std::source_location loc = std::source_location::current()) {
  return detail::shuffle_impl<Renamed>(
      v, width, [=](int lane) { return bbx::detail::shfl_src_idx(lane, src_lane, width); },
      "shuffle_sync", loc);
}
template <bool Renamed = ::bbx::detail::lane_renaming, class T>
inline T shuffle_sync_bfly(const T& v, int lane_mask, int width = 32,
                           std::source_location loc = std::source_location::current()) {
  return detail::shuffle_impl<Renamed>(
      v, width, [=](int lane) { return bbx::detail::shfl_src_xor(lane, lane_mask, width); },
      "shuffle_sync_bfly", loc);
}
template <bool Renamed = ::bbx::detail::lane_renaming, class T>
inline T shuffle_sync_down(const T& v, int delta, int width = 32,
                           std::source_location loc = std::source_location::current()) {
  return detail::shuffle_impl<Renamed>(
      v, width, [=](int lane) { return bbx::detail::shfl_src_down(lane, delta, width); },
      "shuffle_sync_down", loc);
}
template <bool Renamed = ::bbx::detail::lane_renaming, class T>
inline T shuffle_sync_up(const T& v, int delta, int width = 32,
                         std::source_location loc = std::source_location::current()) {
  return detail::shuffle_impl<Renamed>(
      v, width, [=](int lane) { return bbx::detail::shfl_src_up(lane, delta, width); },
      "shuffle_sync_up", loc);
}

// With the DSL's mask_and_clamp (PTX semantics within the caller's 32-lane warp).
#define BBX_SIM_SHUFFLE_CLAMPED(NAME, MODE)                                                      \
  template <bool Renamed = ::bbx::detail::lane_renaming, class T>                               \
  inline T NAME(const T& v, int b, mask_and_clamp c,                                             \
                std::source_location loc = std::source_location::current()) {                    \
    return detail::shuffle_impl<Renamed>(                                                        \
        v, 32, [=](int lane) { return bbx::detail::shfl_src_ptx(MODE, lane, b, c.c); }, #NAME, loc); \
  }
BBX_SIM_SHUFFLE_CLAMPED(shuffle_sync, bbx::detail::shfl_mode::idx)
BBX_SIM_SHUFFLE_CLAMPED(shuffle_sync_up, bbx::detail::shfl_mode::up)
BBX_SIM_SHUFFLE_CLAMPED(shuffle_sync_down, bbx::detail::shfl_mode::down)
BBX_SIM_SHUFFLE_CLAMPED(shuffle_sync_bfly, bbx::detail::shfl_mode::bfly)
#undef BBX_SIM_SHUFFLE_CLAMPED

// Bit i = predicate of lane i of the caller's 32-lane warp (lanes past the end of the block: 0).
template <bool Renamed = ::bbx::detail::lane_renaming>
inline std::uint32_t vote_ballot(bool pred,
                                 std::source_location loc = std::source_location::current()) {
  if constexpr (Renamed) {  // the wave's bits, then the caller's logical warp's
    detail::logical_tid<true>(sim::detail::cur("vote_ballot"), "vote_ballot");
    return sim::wave_collective<bool, std::uint32_t>(
        pred, 64,
        [](const bool* const* ins, std::uint32_t* const* outs, int n) {
          unsigned long long m = 0;
          for (int i = 0; i < n; ++i)
            if (ins[i] && *ins[i]) m |= 1ull << i;
          for (int i = 0; i < n; ++i)
            if (outs[i]) *outs[i] = bbx::detail::logical_warp_bits(m, exact_logical_lane(i) >> 5);
        },
        "vote_ballot", loc);
  }
  return sim::wave_collective<bool, std::uint32_t>(
      pred, 32,
      [](const bool* const* ins, std::uint32_t* const* outs, int n) {
        std::uint32_t m = 0;
        for (int i = 0; i < n; ++i)
          if (ins[i] && *ins[i]) m |= 1u << i;
        for (int i = 0; i < n; ++i)
          if (outs[i]) *outs[i] = m;
      },
      "vote_ballot", loc);
}
template <bool Renamed = ::bbx::detail::lane_renaming>
inline bool vote_any(bool pred, std::source_location loc = std::source_location::current()) {
  return vote_ballot<Renamed>(pred, loc) != 0;
}
template <bool Renamed = ::bbx::detail::lane_renaming>
inline bool vote_all(bool pred, std::source_location loc = std::source_location::current()) {
  auto& t = sim::detail::cur("vote_all");
  const int base = detail::logical_tid<Renamed>(t, "vote_all") & ~31;
  const int n = std::min(32, t.blk->nthreads - base);
  const std::uint32_t present = n == 32 ? 0xffffffffu : ((1u << n) - 1u);
  return vote_ballot<Renamed>(pred, loc) == present;
}

// Atomics return the old value (relaxed ordering, device scope). All fibers of a block share one
// host thread, but blocks run in parallel, so these are real atomics.
template <class T>
inline T atomic_add(T* p, T v, std::source_location loc = std::source_location::current()) {
  sim::check_atomic_access(p, sizeof(T), loc);
  return std::atomic_ref<T>(*p).fetch_add(v, std::memory_order_relaxed);
}
template <class T>
inline T atomic_max(T* p, T v, std::source_location loc = std::source_location::current()) {
  sim::check_atomic_access(p, sizeof(T), loc);
  std::atomic_ref<T> r(*p);
  T old = r.load(std::memory_order_relaxed);
  while (old < v && !r.compare_exchange_weak(old, v, std::memory_order_relaxed)) {
  }
  return old;
}
template <class T>
inline T atomic_min(T* p, T v, std::source_location loc = std::source_location::current()) {
  sim::check_atomic_access(p, sizeof(T), loc);
  std::atomic_ref<T> r(*p);
  T old = r.load(std::memory_order_relaxed);
  while (v < old && !r.compare_exchange_weak(old, v, std::memory_order_relaxed)) {
  }
  return old;
}
// `pred ? *p : old` for one register-sized chunk; `p` is read only when `pred` holds.
template <class VT>
inline VT load_if(VT const* p, bool pred, VT old) {
  if (pred) old = *p;
  return old;
}
// Stores `desired` if *p == expected; returns the old value.
template <class T>
inline T atomic_cas(T* p, T expected, T desired,
                    std::source_location loc = std::source_location::current()) {
  sim::check_atomic_access(p, sizeof(T), loc);
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired, std::memory_order_relaxed);
  return expected;
}

}  // namespace arch
}  // namespace bbx
