// bbx/platform/common.hpp — types shared by every target: dim3, Stream, LaunchError and the
// bit-level helpers used to move arbitrary 1/2/4/8-byte values through 32-bit lane exchanges.
#pragma once

#include <utility>  // std::tuple_size (dim3_of)

#include "bbx/config.hpp"

// BBX_HOST_STD: host code may use the standard library (every build but AMD device-only
// header-free compiles; a loadable AMD build without ROCm headers, BBX_HIP_RUNTIME_ABI, has it).
#if !defined(BBX_HIP_HEADER_FREE) || defined(BBX_HIP_RUNTIME_ABI)
#  define BBX_HOST_STD 1
#endif

#if defined(BBX_HOST_STD)
#  include <cstdarg>
#  include <cstddef>
#  include <cstdint>
#  include <cstdio>
#  include <exception>
#endif

namespace bbx {

// A `dim3`-like triple. Plain public members so `auto [x, y, z] = arch::thread_idx();` works.
struct dim3 {
  int x, y, z;
  BBX_HOST_DEVICE constexpr dim3(int x_ = 1, int y_ = 1, int z_ = 1) : x(x_), y(y_), z(z_) {}
  BBX_HOST_DEVICE constexpr long long volume() const {
    return static_cast<long long>(x) * y * z;
  }
};

// A grid or block given as a tuple of 1 to 3 extents whose length C++ knows and the translation
// did not (`grid = *cute.ceil_div(shape, tiler), 1`).
template <class T>
BBX_HOST_DEVICE constexpr dim3 dim3_of(T const& t) {
  constexpr int n = int(std::tuple_size_v<T>);
  static_assert(1 <= n && n <= 3, "grid/block: a tuple of 1 to 3 extents");
  if constexpr (n == 1) return dim3(int(get<0>(t)));
  else if constexpr (n == 2) return dim3(int(get<0>(t)), int(get<1>(t)));
  else return dim3(int(get<0>(t)), int(get<1>(t)), int(get<2>(t)));
}

// Options of a launch beyond its geometry (the DSL's `launch(cooperative=...,
// preferred_smem_carveout=...)`): `launch(launch_options{.cooperative = true}, kernel, ...)`.
struct launch_options {
  bool cooperative = false;  // every block of the grid resident at once (blocks may wait for
                             // each other through global memory)
  int smem_carveout = -1;    // CUDA: preferred percentage of L1 kept for shared memory; -1: the
                             // driver's choice (AMD's LDS is separate: no meaning there)
};

#if defined(BBX_HOST_STD)
// An opaque stream handle as an integer (hipStream_t / cudaStream_t / unused on CPU); 0 is the
// default (null) stream.
struct Stream {
  std::uintptr_t handle = 0;
  constexpr Stream() = default;
  constexpr explicit Stream(std::uintptr_t h) : handle(h) {}
  template <class P>
  explicit Stream(P* p) : handle(reinterpret_cast<std::uintptr_t>(p)) {}
};

// Thrown on the host when a kernel launch is rejected by the runtime. Its message is formatted
// into the exception (printf-style, at most 511 characters): the units of GPU targets include no
// <string>/<stdexcept>, whose parsing cost each of nvcc's three C++ front ends (cudafe++, cicc,
// the host compiler) about 0.25 s.
class LaunchError : public std::exception {
 public:
  explicit LaunchError(const char* message) { std::snprintf(message_, sizeof message_, "%s", message); }
  template <class... A>
  static LaunchError format(const char* fmt, A... args) {
    LaunchError e("");
    std::snprintf(e.message_, sizeof e.message_, fmt, args...);
    return e;
  }
  const char* what() const noexcept override { return message_; }

 private:
  char message_[512];
};
#else
struct Stream {
  unsigned long handle = 0;
};
#endif

namespace detail {
// Raw 32-bit words of a value of 1, 2, 4 or 8 bytes (smaller values are zero-extended).
template <class T>
struct LaneWords {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "bbx shuffles move values of 1, 2, 4 or 8 bytes");
  static constexpr int count = sizeof(T) == 8 ? 2 : 1;
  unsigned w[count];
  BBX_HOST_DEVICE static LaneWords from(const T& v) {
    LaneWords r{};
    __builtin_memcpy(static_cast<void*>(r.w), static_cast<const void*>(&v), sizeof(T));
    return r;
  }
  BBX_HOST_DEVICE T to() const {
    T v;
    __builtin_memcpy(static_cast<void*>(&v), static_cast<const void*>(w), sizeof(T));
    return v;
  }
};

// CUDA semantics of the lane a shuffle reads, given the caller's lane `lane` (within the wave
// or warp) and the segment width (power of two). Returns `lane` itself where CUDA keeps the
// caller's own value. As in PTX shfl.sync, the lane/mask/delta operand is taken modulo the
// warp (5 bits; 6 bits for a width-64 shuffle on a 64-lane wavefront) — checked against an
// H200 by benchmarks/cuda_platform_check.py.
BBX_HOST_DEVICE constexpr int shfl_operand(int b, int width) { return b & (width == 64 ? 63 : 31); }
BBX_HOST_DEVICE constexpr int shfl_src_idx(int lane, int src, int width) {
  return (lane & ~(width - 1)) + (src & (width - 1));
}
BBX_HOST_DEVICE constexpr int shfl_src_xor(int lane, int mask, int width) {
  const int s = lane ^ shfl_operand(mask, width);
  return s >= ((lane + width) & ~(width - 1)) ? lane : s;
}
BBX_HOST_DEVICE constexpr int shfl_src_down(int lane, int delta, int width) {
  delta = shfl_operand(delta, width);
  return ((lane & (width - 1)) + delta >= width) ? lane : lane + delta;
}
BBX_HOST_DEVICE constexpr int shfl_src_up(int lane, int delta, int width) {
  delta = shfl_operand(delta, width);
  return ((lane & (width - 1)) - delta < 0) ? lane : lane - delta;
}

// PTX shfl.sync with the packed `c` operand that the DSL passes as `mask_and_clamp`: c[12:8] is
// a segment mask, c[4:0] a clamp lane. Returns the lane (within the 32-lane warp) that `lane`
// reads, or `lane` itself where PTX keeps the caller's own value. CUDA's `width` w is
// c = ((32 - w) << 8) | 31 (idx, down, bfly) or c = (32 - w) << 8 (up); the DSL's defaults are
// the same with w = 32: c = 31 (idx, down, bfly) and c = 0 (up).
enum class shfl_mode { idx, up, down, bfly };
BBX_HOST_DEVICE constexpr int shfl_src_ptx(shfl_mode mode, int lane, int b, int c) {
  const int segmask = (c >> 8) & 31, clamp = c & 31, bval = b & 31;
  const int min_lane = lane & segmask;
  const int max_lane = min_lane | (clamp & ~segmask);
  int j = lane;
  bool ok = false;
  switch (mode) {
    case shfl_mode::up: j = lane - bval; ok = j >= max_lane; break;
    case shfl_mode::down: j = lane + bval; ok = j <= max_lane; break;
    case shfl_mode::bfly: j = lane ^ bval; ok = j <= max_lane; break;
    case shfl_mode::idx: j = min_lane | (bval & ~segmask); ok = j <= max_lane; break;
  }
  return ok ? j : lane;
}
// The CUDA width w that `c` encodes for `mode` (0: none — the general PTX rule applies).
BBX_HOST_DEVICE constexpr int shfl_width_of(shfl_mode mode, int c) {
  for (int w = 1; w <= 32; w *= 2) {
    const int seg = (32 - w) << 8;
    if (c == (mode == shfl_mode::up ? seg : (seg | 31))) return w;
  }
  return 0;
}
}  // namespace detail

namespace arch {
// `mask_and_clamp=` of the DSL's shuffles (the PTX `c` operand; see detail::shfl_src_ptx).
struct mask_and_clamp {
  int c;
  BBX_HOST_DEVICE constexpr explicit mask_and_clamp(int v) : c(v) {}
};

// `cute.arch.make_warp_uniform(x)`: a hint that x is equal across the warp. A DSL warp is half an
// AMD wavefront, whose two halves may hold different values, so it is the identity everywhere.
template <class T>
BBX_HOST_DEVICE constexpr T make_warp_uniform(T const& x) { return x; }

// Whether this compilation pass produces device code (AMD or CUDA device passes): code for the
// device only is `if constexpr (arch::device_pass)` in a template, discarded in host passes.
#if defined(BBX_DEVICE_PASS)
inline constexpr bool device_pass = true;
#else
inline constexpr bool device_pass = false;
#endif
}  // namespace arch

// Dynamic shared memory given to a kernel launched without `smem=` that makes a SmemAllocator:
// the DSL sizes such a launch from the allocator's calls, which bbx does not compute yet, so
// the kernel gets all a block may have: on CUDA the device's opt-in maximum less the kernel's
// static shared memory (this value is a marker bbx::launch resolves per kernel; 48 KB, what
// CUDA grants without opting in, is too little for a 4-stage 128x128x32 f16 GEMM); on AMD the
// LDS a workgroup gets without opting in, 64 KB (the simulator models AMD).
#if defined(BBX_TARGET_CUDA)
inline constexpr unsigned smem_allocator_default_bytes = 0xFFFFFFFFu;
#else
inline constexpr unsigned smem_allocator_default_bytes = 64 * 1024;
#endif
}  // namespace bbx
