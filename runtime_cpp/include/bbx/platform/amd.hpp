// bbx/platform/amd.hpp — the platform API on AMD GPUs (CDNA: gfx90a, gfx942, gfx950; wave64).
//
// Device code uses clang builtins only, so it compiles both with ROCm's headers (hipcc) and in
// header-free mode (BBX_HIP_HEADER_FREE: `clang++ -x hip -nogpuinc -nogpulib`, device-only).
// A DSL warp is 32 lanes = half a wavefront: lane_idx() is the lane within that half, shuffles of
// width <= 32 stay inside it, vote_ballot() returns the 32 bits of the caller's half.
//
// Shuffle lowering (the value moves as 32-bit words; 64-bit values as two words):
//   * xor with a compile-time mask < min(width, 32): DPP quad_perm (1, 2, 3), DPP row_ror:8 (8),
//     ds_swizzle bitmask mode (any other mask < 32);
//   * up/down with width 16 and a compile-time delta: DPP row_shr / row_shl;
//   * everything else: ds_bpermute (any lane of the wave).
// Under lane renaming (Renamed = true, default BBX_LANE_RENAMING; platform/lane_renaming.hpp)
// thread_idx().x, lane_idx()
// and warp_idx() are logical; a shuffle's source is found among logical lanes and read from its
// physical lane (a constant xor maps to the physical xor of pi: DPP / ds_swizzle when that stays
// in 32 lanes, else ds_bpermute); a ballot's bits are gathered into logical lane order.
#pragma once

#include "bbx/config.hpp"
#include "bbx/platform/common.hpp"
#include "bbx/platform/lane_renaming.hpp"

#if defined(BBX_HOST_STD)
#  include <cstddef>
#  include <utility>
#endif

#if defined(BBX_HIP_HEADER_FREE) && defined(BBX_HIP_RUNTIME_ABI)
// A loadable build without ROCm's headers (clang -x hip -nogpuinc -DBBX_HIP_RUNTIME_ABI, linked
// with libamdhip64): the HIP runtime functions the host side calls, declared at global scope
// from their C ABI (hip_runtime_api.h: hipError_t is an int-sized enum with hipSuccess 0, dim3
// three uint32). clang's kernel stubs call hipLaunchKernel and take its parameter types from
// this declaration.
extern "C" {
using hipError_t = int;
using hipStream_t = struct ihipStream_t*;
struct bbx_hip_dim3 {
  unsigned x, y, z;
};
hipError_t hipLaunchKernel(const void* function_address, bbx_hip_dim3 blocks, bbx_hip_dim3 threads,
                           void** args, std::size_t shared_bytes, hipStream_t stream);
hipError_t hipGetLastError(void);
const char* hipGetErrorName(hipError_t error);
const char* hipGetErrorString(hipError_t error);
hipError_t hipFuncSetAttribute(const void* function, int attribute, int value);
hipError_t hipLaunchCooperativeKernel(const void* f, bbx_hip_dim3 grid_dim, bbx_hip_dim3 block_dim,
                                      void** kernel_params, unsigned int shared_bytes,
                                      hipStream_t stream);
hipError_t hipGetDeviceCount(int* count);
}
#endif

namespace bbx {
namespace arch {

template <bool Renamed = ::bbx::detail::lane_renaming>
BBX_DEVICE dim3 thread_idx() {
  // (renaming: x within each 64 consecutive x, a wave for 1-D blocks or blockDim.x % 64 == 0)
  return dim3(::bbx::detail::logical_thread<Renamed>(static_cast<int>(__builtin_amdgcn_workitem_id_x())),
              static_cast<int>(__builtin_amdgcn_workitem_id_y()),
              static_cast<int>(__builtin_amdgcn_workitem_id_z()));
}
BBX_DEVICE dim3 block_idx() {
  return dim3(static_cast<int>(__builtin_amdgcn_workgroup_id_x()),
              static_cast<int>(__builtin_amdgcn_workgroup_id_y()),
              static_cast<int>(__builtin_amdgcn_workgroup_id_z()));
}
BBX_DEVICE dim3 block_dim() {
  return dim3(static_cast<int>(__builtin_amdgcn_workgroup_size_x()),
              static_cast<int>(__builtin_amdgcn_workgroup_size_y()),
              static_cast<int>(__builtin_amdgcn_workgroup_size_z()));
}
// The dispatch packet holds the grid size in work-items; HIP launches uniform work-groups.
BBX_DEVICE dim3 grid_dim() {
  const unsigned bx = __builtin_amdgcn_workgroup_size_x(), by = __builtin_amdgcn_workgroup_size_y(),
                 bz = __builtin_amdgcn_workgroup_size_z();
  return dim3(static_cast<int>((__builtin_amdgcn_grid_size_x() + bx - 1) / bx),
              static_cast<int>((__builtin_amdgcn_grid_size_y() + by - 1) / by),
              static_cast<int>((__builtin_amdgcn_grid_size_z() + bz - 1) / bz));
}
BBX_DEVICE int wavefront_size() { return __builtin_amdgcn_wavefrontsize(); }

namespace detail {
// Lane within the hardware wavefront (0..63).
BBX_DEVICE int wave_lane() {
  return static_cast<int>(__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)));
}
// The kernel's lane within the wave (logical under lane renaming).
template <bool Renamed>
BBX_DEVICE int logical_wave_lane() {
  return Renamed ? exact_logical_lane(wave_lane()) : wave_lane();
}
// The physical lane that reads logical source lane `src` (a lane of the wave).
template <bool Renamed>
BBX_DEVICE int physical_src(int src) { return Renamed ? exact_physical_lane(src) : src; }
BBX_DEVICE int linear_tid() {  // physical
  const dim3 t = thread_idx<false>();
  return t.x + static_cast<int>(__builtin_amdgcn_workgroup_size_x()) *
                   (t.y + static_cast<int>(__builtin_amdgcn_workgroup_size_y()) * t.z);
}
}  // namespace detail

template <bool Renamed = ::bbx::detail::lane_renaming>
BBX_DEVICE int lane_idx() { return detail::logical_wave_lane<Renamed>() & 31; }
template <bool Renamed = ::bbx::detail::lane_renaming>
BBX_DEVICE int warp_idx() { return ::bbx::detail::logical_thread<Renamed>(detail::linear_tid()) >> 5; }

// Block barrier: make this thread's shared/global writes visible to the work-group, wait for
// every wave, then acquire the others' writes.
BBX_DEVICE void sync_threads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
BBX_DEVICE void barrier() { sync_threads(); }

namespace detail {
BBX_DEVICE int bpermute(int src_lane, int v) { return __builtin_amdgcn_ds_bpermute(src_lane << 2, v); }

// Apply a 32-bit lane exchange to each word of v.
template <class T, class F>
BBX_DEVICE T per_word(const T& v, F f) {
  auto w = ::bbx::detail::LaneWords<T>::from(v);
  BBX_UNROLL
  for (int i = 0; i < ::bbx::detail::LaneWords<T>::count; ++i)
    w.w[i] = static_cast<unsigned>(f(static_cast<int>(w.w[i])));
  return w.to();
}

// Calls f.template operator()<K>() for the K in [Lo, Hi] equal to k (k known at compile time
// after inlining, so this folds to one instruction).
template <int Lo, int Hi, class F>
BBX_DEVICE int const_dispatch(int k, F f, int v) {
  if constexpr (Lo > Hi) {
    return v;
  } else {
    if (k == Lo) return f.template operator()<Lo>(v);
    return const_dispatch<Lo + 1, Hi>(k, f, v);
  }
}

// xor within 32 lanes, mask a compile-time constant in [1, 31].
BBX_DEVICE int xor_const(int mask, int v) {
  switch (mask) {
    case 1: return __builtin_amdgcn_update_dpp(v, v, 0xB1, 0xF, 0xF, false);   // quad_perm [1,0,3,2]
    case 2: return __builtin_amdgcn_update_dpp(v, v, 0x4E, 0xF, 0xF, false);   // quad_perm [2,3,0,1]
    case 3: return __builtin_amdgcn_update_dpp(v, v, 0x1B, 0xF, 0xF, false);   // quad_perm [3,2,1,0]
    case 8: return __builtin_amdgcn_update_dpp(v, v, 0x128, 0xF, 0xF, false);  // row_ror:8
    default:
      // ds_swizzle bitmask mode: and_mask 0x1F, or_mask 0, xor_mask = mask (within 32 lanes)
      return const_dispatch<1, 31>(
          mask, []<int M>(int x) BBX_INLINE { return __builtin_amdgcn_ds_swizzle(x, 0x1F | (M << 10)); }, v);
  }
}
}  // namespace detail

template <bool Renamed = ::bbx::detail::lane_renaming, class T>
BBX_DEVICE T shuffle_sync(const T& v, int src_lane, int width = 32) {
  const int src = detail::physical_src<Renamed>(::bbx::detail::shfl_src_idx(detail::logical_wave_lane<Renamed>(), src_lane, width));
  return detail::per_word(v, [src](int x) BBX_INLINE { return detail::bpermute(src, x); });
}

template <bool Renamed = ::bbx::detail::lane_renaming, class T>
BBX_DEVICE T shuffle_sync_bfly(const T& v, int lane_mask, int width = 32) {
  // A mask below 32 (and below the width) never leaves the caller's 32-lane half.
  if (__builtin_constant_p(lane_mask) && __builtin_constant_p(width) && lane_mask > 0 &&
      lane_mask < 32 && lane_mask < width) {
    if constexpr (Renamed) {  // pi maps logical bits 0-4 to physical 4, 5, 0, 1, 2
      const int pm = ((lane_mask & 3) << 4) | ((lane_mask >> 2) & 7);
      if (pm < 32) return detail::per_word(v, [pm](int x) BBX_INLINE { return detail::xor_const(pm, x); });
      const int src = detail::wave_lane() ^ pm;
      return detail::per_word(v, [src](int x) BBX_INLINE { return detail::bpermute(src, x); });
    } else {
      return detail::per_word(v, [lane_mask](int x) BBX_INLINE { return detail::xor_const(lane_mask, x); });
    }
  }
  const int src = detail::physical_src<Renamed>(::bbx::detail::shfl_src_xor(detail::logical_wave_lane<Renamed>(), lane_mask, width));
  return detail::per_word(v, [src](int x) BBX_INLINE { return detail::bpermute(src, x); });
}

template <bool Renamed = ::bbx::detail::lane_renaming, class T>
BBX_DEVICE T shuffle_sync_down(const T& v, int delta, int width = 32) {
  if (__builtin_constant_p(delta) && __builtin_constant_p(width) && width == 16 && delta > 0 &&
      delta < 16 && !Renamed) {  // DPP row_shl:delta; lanes whose source leaves the row keep their value
    return detail::per_word(v, [delta](int x) BBX_INLINE {
      return detail::const_dispatch<1, 15>(
          delta, []<int D>(int y) BBX_INLINE { return __builtin_amdgcn_update_dpp(y, y, 0x100 + D, 0xF, 0xF, false); }, x);
    });
  }
  const int src = detail::physical_src<Renamed>(::bbx::detail::shfl_src_down(detail::logical_wave_lane<Renamed>(), delta, width));
  return detail::per_word(v, [src](int x) BBX_INLINE { return detail::bpermute(src, x); });
}

template <bool Renamed = ::bbx::detail::lane_renaming, class T>
BBX_DEVICE T shuffle_sync_up(const T& v, int delta, int width = 32) {
  if (__builtin_constant_p(delta) && __builtin_constant_p(width) && width == 16 && delta > 0 &&
      delta < 16 && !Renamed) {  // DPP row_shr:delta
    return detail::per_word(v, [delta](int x) BBX_INLINE {
      return detail::const_dispatch<1, 15>(
          delta, []<int D>(int y) BBX_INLINE { return __builtin_amdgcn_update_dpp(y, y, 0x110 + D, 0xF, 0xF, false); }, x);
    });
  }
  const int src = detail::physical_src<Renamed>(::bbx::detail::shfl_src_up(detail::logical_wave_lane<Renamed>(), delta, width));
  return detail::per_word(v, [src](int x) BBX_INLINE { return detail::bpermute(src, x); });
}

// With the DSL's mask_and_clamp: a constant c that encodes a CUDA width takes that width's path
// (DPP / ds_swizzle where it has one); any other c follows the PTX rule through ds_bpermute.
template <::bbx::detail::shfl_mode Mode, bool Renamed, class T, class WidthFn>
BBX_DEVICE T shuffle_clamped(const T& v, int b, mask_and_clamp c, WidthFn with_width) {
  // The DSL's default c for `up` (31) keeps every lane's own value (shfl_src_ptx): no exchange.
  if constexpr (Mode == ::bbx::detail::shfl_mode::up)
    if (c.c == 31) return v;
  if (__builtin_constant_p(c.c) && ::bbx::detail::shfl_width_of(Mode, c.c) != 0)
    return with_width(::bbx::detail::shfl_width_of(Mode, c.c));
  const int lane = detail::logical_wave_lane<Renamed>();
  const int src = detail::physical_src<Renamed>((lane & 32) + ::bbx::detail::shfl_src_ptx(Mode, lane & 31, b, c.c));
  return detail::per_word(v, [src](int x) BBX_INLINE { return detail::bpermute(src, x); });
}
template <bool Renamed = ::bbx::detail::lane_renaming, class T>
BBX_DEVICE T shuffle_sync(const T& v, int b, mask_and_clamp c) {
  return shuffle_clamped<::bbx::detail::shfl_mode::idx, Renamed>(v, b, c, [&](int w) BBX_INLINE { return shuffle_sync<Renamed>(v, b, w); });
}
template <bool Renamed = ::bbx::detail::lane_renaming, class T>
BBX_DEVICE T shuffle_sync_up(const T& v, int b, mask_and_clamp c) {
  return shuffle_clamped<::bbx::detail::shfl_mode::up, Renamed>(v, b, c, [&](int w) BBX_INLINE { return shuffle_sync_up<Renamed>(v, b, w); });
}
template <bool Renamed = ::bbx::detail::lane_renaming, class T>
BBX_DEVICE T shuffle_sync_down(const T& v, int b, mask_and_clamp c) {
  return shuffle_clamped<::bbx::detail::shfl_mode::down, Renamed>(v, b, c, [&](int w) BBX_INLINE { return shuffle_sync_down<Renamed>(v, b, w); });
}
template <bool Renamed = ::bbx::detail::lane_renaming, class T>
BBX_DEVICE T shuffle_sync_bfly(const T& v, int b, mask_and_clamp c) {
  return shuffle_clamped<::bbx::detail::shfl_mode::bfly, Renamed>(v, b, c, [&](int w) BBX_INLINE { return shuffle_sync_bfly<Renamed>(v, b, w); });
}

// Bit i = predicate of lane i of the caller's 32-lane half-wave.
template <bool Renamed = ::bbx::detail::lane_renaming>
BBX_DEVICE unsigned vote_ballot(bool pred) {
  const unsigned long long b = __builtin_amdgcn_ballot_w64(pred);
  if constexpr (Renamed)
    return ::bbx::detail::logical_warp_bits(b, detail::logical_wave_lane<true>() >> 5);
  return static_cast<unsigned>(b >> (detail::wave_lane() & 32));
}
template <bool Renamed = ::bbx::detail::lane_renaming>
BBX_DEVICE bool vote_any(bool pred) { return vote_ballot<Renamed>(pred) != 0u; }
template <bool Renamed = ::bbx::detail::lane_renaming>
BBX_DEVICE unsigned active_lanes() {  // the caller's warp's active lanes, in its lane order
  if constexpr (Renamed)
    return ::bbx::detail::logical_warp_bits(__builtin_amdgcn_read_exec(), detail::logical_wave_lane<true>() >> 5);
  return static_cast<unsigned>(__builtin_amdgcn_read_exec() >> (detail::wave_lane() & 32));
}
template <bool Renamed = ::bbx::detail::lane_renaming>
BBX_DEVICE bool vote_all(bool pred) {
  return vote_ballot<Renamed>(pred) == active_lanes<Renamed>();
}

// Atomics (relaxed, device scope; on generic pointers, so global and shared both work).
// Return the old value.
template <class T>
BBX_DEVICE T atomic_add(T* p, T v) {
  return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
template <class T>
BBX_DEVICE T atomic_max(T* p, T v) {
  return __hip_atomic_fetch_max(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
template <class T>
BBX_DEVICE T atomic_min(T* p, T v) {
  return __hip_atomic_fetch_min(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
template <class T>
BBX_DEVICE T atomic_cas(T* p, T expected, T desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_AGENT);
  return expected;
}

// The dynamic shared memory of the launch (`smem_bytes` of launch()).
template <class T>
BBX_DEVICE T* dynamic_smem() {
  extern BBX_SHARED __attribute__((aligned(16))) unsigned char bbx_dynamic_smem_[];
  return reinterpret_cast<T*>(bbx_dynamic_smem_);
}

namespace detail {
// 64 bytes of zeros in global memory: what load_if reads for a lane whose predicate is off.
__attribute__((device, aligned(16))) inline unsigned zero_chunk[16] = {};
}  // namespace detail

// `pred ? *p : old` for one register-sized chunk (up to 64 bytes), without a branch: a lane whose
// predicate is off reads detail::zero_chunk instead of `p` and keeps `old`. A branch around the
// load would cost an exec-mask jump and a wait for every vector (s_cbranch_execz, load,
// s_waitcnt vmcnt(0)); this way all loads of a predicated copy are issued before the first wait.
template <class VT>
BBX_DEVICE VT load_if(VT const* p, bool pred, VT old) {
  static_assert(sizeof(VT) <= sizeof(detail::zero_chunk), "load_if: chunk wider than 64 bytes");
  VT const* src = pred ? p : reinterpret_cast<VT const*>(detail::zero_chunk);
  VT loaded = *src;
  return pred ? loaded : old;
}

#if defined(BBX_HIP_HEADER_FREE)
// Without ROCm's device libraries there is no printf runtime (it needs __ockl_printf_*): the
// header-free build (compile checks only, it cannot run) evaluates and discards the arguments.
template <class... A>
BBX_DEVICE int printf(const char*, A...) {
  return 0;
}
#else
using ::printf;
#endif

}  // namespace arch

#if defined(BBX_HIP_HEADER_FREE) && !defined(BBX_HIP_RUNTIME_ABI)
// Device-only compiles never compile host code: launch is declared so that host code parses.
template <class... P, class... A>
void launch(void (*kernel)(P...), dim3 grid, dim3 block, unsigned long smem_bytes, Stream stream,
            A&&... args);
template <class... P, class... A>
void launch(launch_options options, void (*kernel)(P...), dim3 grid, dim3 block,
            unsigned long smem_bytes, Stream stream, A&&... args);
#else
#  if defined(BBX_HIP_HEADER_FREE)
inline constexpr hipError_t hipSuccess = 0;
inline constexpr int hipFuncAttributeMaxDynamicSharedMemorySize = 8;
namespace detail {
using hip_dim3 = ::bbx_hip_dim3;
}  // namespace detail
#  else
namespace detail {
using hip_dim3 = ::dim3;
}  // namespace detail
#  endif
namespace detail {
[[noreturn]] inline void throw_hip(hipError_t e, const char* what, dim3 g, dim3 b, std::size_t smem) {
  throw LaunchError::format(
      "bbx: %s failed: %s: %s (grid (%d,%d,%d), block (%d,%d,%d), dynamic shared memory %zu bytes)",
      what, hipGetErrorName(e), hipGetErrorString(e), g.x, g.y, g.z, b.x, b.y, b.z, smem);
}
}  // namespace detail

// Launches kernel<<<grid, block, smem_bytes, stream>>>(args...) and checks the launch; a grid
// with a zero extent (an empty problem) launches nothing. `options.cooperative` launches with
// hipLaunchCooperativeKernel (every block resident; the runtime refuses a grid too large for
// that); `options.smem_carveout` has no meaning on AMD (the LDS is not carved from a cache).
template <class... P, class... A>
void launch(launch_options options, void (*kernel)(P...), dim3 grid, dim3 block,
            std::size_t smem_bytes, Stream stream, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "bbx::launch: wrong number of kernel arguments");
  if (grid.x < 0 || grid.y < 0 || grid.z < 0 || block.x <= 0 || block.y <= 0 || block.z <= 0)
    throw LaunchError::format(
        "bbx: launch rejected: grid (%d,%d,%d) must not be negative and block (%d,%d,%d) must "
        "be positive", grid.x, grid.y, grid.z, block.x, block.y, block.z);
  if (grid.volume() == 0) return;  // an empty problem: a grid of zero blocks is never launched
  (void)hipGetLastError();  // clear a stale error so it is not blamed on this launch
  if (smem_bytes > 64 * 1024) {
    hipError_t e = hipFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                       hipFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(smem_bytes));
    if (e != hipSuccess) detail::throw_hip(e, "hipFuncSetAttribute", grid, block, smem_bytes);
  }
  // The kernel's parameters, converted from the arguments, live as this lambda's parameters
  // while the runtime copies them from their addresses.
  auto launch_params = [&](std::decay_t<P>... params) BBX_INLINE {
    void* ptrs[] = {static_cast<void*>(&params)..., nullptr};
    const detail::hip_dim3 g{static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y),
                             static_cast<unsigned>(grid.z)};
    const detail::hip_dim3 b{static_cast<unsigned>(block.x), static_cast<unsigned>(block.y),
                             static_cast<unsigned>(block.z)};
    const auto s = reinterpret_cast<hipStream_t>(stream.handle);
    if (options.cooperative)
      return hipLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), g, b, ptrs,
                                        static_cast<unsigned>(smem_bytes), s);
    return hipLaunchKernel(reinterpret_cast<const void*>(kernel), g, b, ptrs, smem_bytes, s);
  };
  hipError_t e = launch_params(std::forward<A>(args)...);
  if (e == hipSuccess) e = hipGetLastError();
  if (e != hipSuccess)
    detail::throw_hip(e, options.cooperative ? "hipLaunchCooperativeKernel" : "hipLaunchKernel",
                      grid, block, smem_bytes);
}
template <class... P, class... A>
void launch(void (*kernel)(P...), dim3 grid, dim3 block, std::size_t smem_bytes, Stream stream,
            A&&... args) {
  launch(launch_options{}, kernel, grid, block, smem_bytes, stream, std::forward<A>(args)...);
}
#endif

}  // namespace bbx
