// bbx/platform/cuda.hpp — the platform API mapped onto CUDA (NVIDIA, warp size 32): the DSL's
// 32-lane warp is the hardware warp; shuffles/votes use the full-warp mask like CuTe-DSL.
#pragma once

#include <cstddef>
#include <cstdio>
#include <type_traits>
#include <utility>

#include "bbx/config.hpp"
#include "bbx/platform/common.hpp"

namespace bbx {
namespace arch {

BBX_DEVICE dim3 thread_idx() {
  return dim3(static_cast<int>(threadIdx.x), static_cast<int>(threadIdx.y), static_cast<int>(threadIdx.z));
}
BBX_DEVICE dim3 block_idx() {
  return dim3(static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y), static_cast<int>(blockIdx.z));
}
BBX_DEVICE dim3 block_dim() {
  return dim3(static_cast<int>(blockDim.x), static_cast<int>(blockDim.y), static_cast<int>(blockDim.z));
}
BBX_DEVICE dim3 grid_dim() {
  return dim3(static_cast<int>(gridDim.x), static_cast<int>(gridDim.y), static_cast<int>(gridDim.z));
}
BBX_DEVICE int wavefront_size() { return 32; }

namespace detail {
BBX_DEVICE int linear_tid() {
  return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
constexpr unsigned kFullMask = 0xffffffffu;
template <class T, class F>
BBX_DEVICE T per_word(const T& v, F f) {
  auto w = ::bbx::detail::LaneWords<T>::from(v);
  BBX_UNROLL
  for (int i = 0; i < ::bbx::detail::LaneWords<T>::count; ++i) w.w[i] = f(w.w[i]);
  return w.to();
}
}  // namespace detail

BBX_DEVICE int lane_idx() { return detail::linear_tid() & 31; }
BBX_DEVICE int warp_idx() { return detail::linear_tid() >> 5; }

BBX_DEVICE void sync_threads() { __syncthreads(); }
BBX_DEVICE void barrier() { __syncthreads(); }

// width must be <= 32 on CUDA (a width-64 shuffle needs a 64-lane wavefront).
template <class T>
BBX_DEVICE T shuffle_sync(const T& v, int src_lane, int width = 32) {
  BBX_ASSERT(width <= 32, "shuffle width 64 needs a 64-lane wavefront");
  return detail::per_word(v, [=](unsigned x) BBX_INLINE { return __shfl_sync(detail::kFullMask, x, src_lane, width); });
}
template <class T>
BBX_DEVICE T shuffle_sync_bfly(const T& v, int lane_mask, int width = 32) {
  BBX_ASSERT(width <= 32, "shuffle width 64 needs a 64-lane wavefront");
  return detail::per_word(v, [=](unsigned x) BBX_INLINE { return __shfl_xor_sync(detail::kFullMask, x, lane_mask, width); });
}
template <class T>
BBX_DEVICE T shuffle_sync_down(const T& v, int delta, int width = 32) {
  BBX_ASSERT(width <= 32, "shuffle width 64 needs a 64-lane wavefront");
  return detail::per_word(v, [=](unsigned x) BBX_INLINE { return __shfl_down_sync(detail::kFullMask, x, static_cast<unsigned>(delta), width); });
}
template <class T>
BBX_DEVICE T shuffle_sync_up(const T& v, int delta, int width = 32) {
  BBX_ASSERT(width <= 32, "shuffle width 64 needs a 64-lane wavefront");
  return detail::per_word(v, [=](unsigned x) BBX_INLINE { return __shfl_up_sync(detail::kFullMask, x, static_cast<unsigned>(delta), width); });
}

// With the DSL's mask_and_clamp: the PTX instruction itself, c passed through.
#define BBX_CUDA_SHUFFLE_CLAMPED(NAME, MODE)                                                     \
  template <class T>                                                                             \
  BBX_DEVICE T NAME(const T& v, int b, mask_and_clamp c) {                                       \
    return detail::per_word(v, [=](unsigned x) BBX_INLINE {                                                 \
      unsigned r;                                                                                \
      asm volatile("shfl.sync." MODE ".b32 %0, %1, %2, %3, %4;"                                  \
                   : "=r"(r) : "r"(x), "r"(b), "r"(c.c), "r"(detail::kFullMask));                \
      return r;                                                                                  \
    });                                                                                          \
  }
BBX_CUDA_SHUFFLE_CLAMPED(shuffle_sync, "idx")
BBX_CUDA_SHUFFLE_CLAMPED(shuffle_sync_up, "up")
BBX_CUDA_SHUFFLE_CLAMPED(shuffle_sync_down, "down")
BBX_CUDA_SHUFFLE_CLAMPED(shuffle_sync_bfly, "bfly")
#undef BBX_CUDA_SHUFFLE_CLAMPED

BBX_DEVICE unsigned vote_ballot(bool pred) { return __ballot_sync(detail::kFullMask, pred); }
BBX_DEVICE bool vote_any(bool pred) { return __any_sync(detail::kFullMask, pred) != 0; }
BBX_DEVICE bool vote_all(bool pred) { return __all_sync(detail::kFullMask, pred) != 0; }

namespace detail {
template <class T>
BBX_DEVICE T atomic_fmax(T* p, T v) {
  using I = std::conditional_t<sizeof(T) == 4, int, unsigned long long>;
  I* ip = reinterpret_cast<I*>(p);
  I old = *reinterpret_cast<volatile I*>(ip);
  while (true) {
    T cur;
    __builtin_memcpy(&cur, &old, sizeof(T));
    if (!(cur < v)) return cur;
    I want;
    __builtin_memcpy(&want, &v, sizeof(T));
    const I seen = atomicCAS(ip, old, want);
    if (seen == old) return cur;
    old = seen;
  }
}
template <class T>
BBX_DEVICE T atomic_fmin(T* p, T v) {
  using I = std::conditional_t<sizeof(T) == 4, int, unsigned long long>;
  I* ip = reinterpret_cast<I*>(p);
  I old = *reinterpret_cast<volatile I*>(ip);
  while (true) {
    T cur;
    __builtin_memcpy(&cur, &old, sizeof(T));
    if (!(v < cur)) return cur;
    I want;
    __builtin_memcpy(&want, &v, sizeof(T));
    const I seen = atomicCAS(ip, old, want);
    if (seen == old) return cur;
    old = seen;
  }
}
}  // namespace detail

// Atomics on global or shared pointers; return the old value.
template <class T>
BBX_DEVICE T atomic_add(T* p, T v) { return atomicAdd(p, v); }
template <class T>
BBX_DEVICE T atomic_max(T* p, T v) {
  if constexpr (std::is_floating_point_v<T>) return detail::atomic_fmax(p, v);
  else return atomicMax(p, v);
}
template <class T>
BBX_DEVICE T atomic_min(T* p, T v) {
  if constexpr (std::is_floating_point_v<T>) return detail::atomic_fmin(p, v);
  else return atomicMin(p, v);
}
template <class T>
BBX_DEVICE T atomic_cas(T* p, T expected, T desired) {
  if constexpr (std::is_floating_point_v<T>) {
    using I = std::conditional_t<sizeof(T) == 4, int, unsigned long long>;
    I e, d;
    __builtin_memcpy(&e, &expected, sizeof(T));
    __builtin_memcpy(&d, &desired, sizeof(T));
    const I old = atomicCAS(reinterpret_cast<I*>(p), e, d);
    T r;
    __builtin_memcpy(&r, &old, sizeof(T));
    return r;
  } else {
    return atomicCAS(p, expected, desired);
  }
}

template <class T>
BBX_DEVICE T* dynamic_smem() {
  extern __shared__ __align__(16) unsigned char bbx_dynamic_smem_[];
  return reinterpret_cast<T*>(bbx_dynamic_smem_);
}

// `pred ? *p : old` for one register-sized chunk: a predicated load (`@p ld.global`).
template <class VT>
BBX_DEVICE VT load_if(VT const* p, bool pred, VT old) {
  if (pred) old = *p;
  return old;
}

using ::printf;

}  // namespace arch

namespace detail {
[[noreturn]] inline void throw_cuda(cudaError_t e, const char* what, dim3 g, dim3 b, std::size_t smem) {
  throw LaunchError::format(
      "bbx: %s failed: %s: %s (grid (%d,%d,%d), block (%d,%d,%d), dynamic shared memory %zu bytes)",
      what, cudaGetErrorName(e), cudaGetErrorString(e), g.x, g.y, g.z, b.x, b.y, b.z, smem);
}
// The most dynamic shared memory `kernel` may be launched with on the current device: the
// opt-in maximum per block less the kernel's static shared memory.
template <class K>
std::size_t largest_dynamic_smem(K kernel) {
  int device = 0, optin = 0;
  cudaFuncAttributes attrs{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess ||
      cudaFuncGetAttributes(&attrs, reinterpret_cast<const void*>(kernel)) != cudaSuccess)
    return 48 * 1024;
  return static_cast<std::size_t>(optin) - attrs.sharedSizeBytes;
}
}  // namespace detail

// Launches kernel<<<grid, block, smem_bytes, stream>>>(args...) and checks the launch; a grid
// with a zero extent (an empty problem) launches nothing. `options.cooperative` launches with
// cudaLaunchCooperativeKernel (every block resident; the runtime refuses a grid too large for
// that); `options.smem_carveout` (0-100) sets the kernel's preferred shared-memory carveout.
template <class... P, class... A>
void launch(launch_options options, void (*kernel)(P...), dim3 grid, dim3 block,
            std::size_t smem_bytes, Stream stream, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "bbx::launch: wrong number of kernel arguments");
  if (grid.x < 0 || grid.y < 0 || grid.z < 0 || block.x <= 0 || block.y <= 0 || block.z <= 0)
    throw LaunchError::format(
        "bbx: launch rejected: grid (%d,%d,%d) must not be negative and block (%d,%d,%d) must "
        "be positive", grid.x, grid.y, grid.z, block.x, block.y, block.z);
  if (grid.volume() == 0) return;  // an empty problem: a grid of zero blocks is never launched
  (void)cudaGetLastError();  // clear a stale error so it is not blamed on this launch
  if (smem_bytes == smem_allocator_default_bytes) smem_bytes = detail::largest_dynamic_smem(kernel);
  if (smem_bytes > 48 * 1024) {
    cudaError_t e = cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(smem_bytes));
    if (e != cudaSuccess) detail::throw_cuda(e, "cudaFuncSetAttribute", grid, block, smem_bytes);
  }
  if (options.smem_carveout >= 0) {
    cudaError_t e = cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                         cudaFuncAttributePreferredSharedMemoryCarveout,
                                         options.smem_carveout);
    if (e != cudaSuccess) detail::throw_cuda(e, "cudaFuncSetAttribute", grid, block, smem_bytes);
  }
  // The kernel's parameters, converted from the arguments, live as this lambda's parameters
  // while the runtime copies them from their addresses.
  auto launch_params = [&](std::decay_t<P>... params) BBX_INLINE {
    void* ptrs[] = {static_cast<void*>(&params)..., nullptr};
    const ::dim3 g(static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y),
                   static_cast<unsigned>(grid.z));
    const ::dim3 b(static_cast<unsigned>(block.x), static_cast<unsigned>(block.y),
                   static_cast<unsigned>(block.z));
    const auto s = reinterpret_cast<cudaStream_t>(stream.handle);
    if (options.cooperative)
      return cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), g, b, ptrs,
                                         smem_bytes, s);
    return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), g, b, ptrs, smem_bytes, s);
  };
  cudaError_t e = launch_params(std::forward<A>(args)...);
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess)
    detail::throw_cuda(e, options.cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel",
                       grid, block, smem_bytes);
}
template <class... P, class... A>
void launch(void (*kernel)(P...), dim3 grid, dim3 block, std::size_t smem_bytes, Stream stream,
            A&&... args) {
  launch(launch_options{}, kernel, grid, block, smem_bytes, stream, std::forward<A>(args)...);
}

}  // namespace bbx
