// bbx/config.hpp — the target switch and the function-space macros used by every header.
//
// Exactly one of BBX_TARGET_AMD, BBX_TARGET_CUDA, BBX_TARGET_CPU is defined to 1:
//   * AMD : compiled as HIP by hipcc or clang (`__HIP__`). With ROCm present `hip/hip_runtime.h`
//           is used; with `-nogpuinc` (no ROCm) the attributes are spelled out by hand and only
//           clang builtins (`__builtin_amdgcn_*`) are used.
//   * CUDA: compiled by nvcc (`__CUDACC__`); HIP names are mapped onto CUDA in platform/cuda.hpp.
//   * CPU : anything else (g++/clang as plain C++): the reference simulator in platform/cpu/.
//
// BBX_DEVICE_PASS is 1 while a device-side compilation pass runs (AMD or CUDA device code).
#pragma once

#include <type_traits>

#if defined(__HIP__)
#  define BBX_TARGET_AMD 1
#  if defined(BBX_HEADER_FREE) || !__has_include(<hip/hip_runtime.h>)
#    define BBX_HIP_HEADER_FREE 1
#  else
#    include <hip/hip_runtime.h>
#  endif
#elif defined(__CUDACC__)
#  define BBX_TARGET_CUDA 1
#  include <cuda_runtime.h>
#else
#  define BBX_TARGET_CPU 1
#endif

#if (defined(BBX_TARGET_AMD) && defined(__HIP_DEVICE_COMPILE__)) || \
    (defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__))
#  define BBX_DEVICE_PASS 1
#endif

// BBX_INLINE: inlined at every call in device code, as CuTe's functions are (CUTE_HOST_DEVICE is
// __forceinline__). A register tensor is an array that lives in registers only while every
// access to it has a constant index after inlining and unrolling; a call that stays a call
// takes its tensors by address, so the arrays move to local memory (CUDA's stack, AMD's
// scratch) for the whole kernel. The compilers' own heuristics leave large callees as calls:
// an attention kernel's per-block helper (a @cute.jit method, or a range_constexpr body, a
// lambda) put 3.9 KB of fragments on the stack of each thread. So every device function of
// the header library and of generated code, and every lambda (`[&](auto i) BBX_INLINE {`, the
// attribute right after the parameter list), is always inlined in device passes; host passes
// and the simulator keep the compilers' choice (their build time, and the fibers' stacks).
// Unoptimized clang device passes (-O0 compile checks) keep it too: forced inlining there only
// multiplies the code (a -O0 gfx942 unit of every registry example: over 11 minutes and 5 GB).
#if defined(BBX_DEVICE_PASS) && !(defined(__clang__) && !defined(__OPTIMIZE__))
#  define BBX_INLINE __attribute__((always_inline))
#else
#  define BBX_INLINE
#endif

#if defined(BBX_TARGET_AMD) && defined(BBX_HIP_HEADER_FREE)
#  define BBX_HOST_DEVICE __attribute__((host, device)) inline BBX_INLINE
#  define BBX_DEVICE __attribute__((device)) inline BBX_INLINE
#  define BBX_GLOBAL __attribute__((global))
#  define BBX_SHARED __attribute__((shared))
#elif defined(BBX_TARGET_AMD) || defined(BBX_TARGET_CUDA)
#  define BBX_HOST_DEVICE __host__ __device__ inline BBX_INLINE
#  define BBX_DEVICE __device__ inline BBX_INLINE
#  define BBX_GLOBAL __global__
#  define BBX_SHARED __shared__
#else
#  define BBX_HOST_DEVICE inline
#  define BBX_DEVICE inline
#  define BBX_GLOBAL
// The simulator runs all threads of a block on one host thread and one block at a time per
// host thread, so a function-local `static thread_local` object is exactly "one per block".
#  define BBX_SHARED static thread_local
#endif

// BBX_CONSTANT_OBJECT: a namespace-scope constexpr object of class type used in device code
// (`BBX_CONSTANT_OBJECT Underscore _{};`). nvcc refuses host constexpr objects of class type in
// device code, so its device pass gets a __device__ constant of its own (each compilation pass
// sees one definition).
#if defined(__CUDACC__) && defined(__CUDA_ARCH__)
#  define BBX_CONSTANT_OBJECT static constexpr __device__
#else
#  define BBX_CONSTANT_OBJECT inline constexpr
#endif

// BBX_LAUNCH_BOUNDS(Block): the most threads a block of this kernel has, from a
// bbx::block_threads_t type (static block extents give their product, run-time ones 1024), and
// the DSL's `launch(min_blocks_per_mp=k)` occupancy hint (bbx::with_min_blocks; 0: none).
// Without the first the compilers assume 1024 threads, which caps registers per thread and
// spills. The second caps registers so that k blocks fit on an SM: CUDA's minBlocksPerSM; on
// AMD the same number of waves spread over the CU's four SIMDs (amdgpu_waves_per_eu).
#if defined(BBX_TARGET_AMD)
#  define BBX_LAUNCH_BOUNDS(Block)                                              \
    __attribute__((amdgpu_flat_work_group_size(1, ::bbx::max_threads_v<Block>), \
                   amdgpu_waves_per_eu(::bbx::min_waves_per_eu_v<Block>)))
#elif defined(BBX_TARGET_CUDA)
#  define BBX_LAUNCH_BOUNDS(Block) \
    __launch_bounds__(::bbx::max_threads_v<Block>, ::bbx::min_blocks_v<Block>)
#else
#  define BBX_LAUNCH_BOUNDS(Block)
#endif

// Hint that a loop with a static trip count should be fully unrolled.
#if defined(BBX_TARGET_CPU) && defined(__GNUC__) && !defined(__clang__)
#  define BBX_UNROLL _Pragma("GCC unroll 64")
#else
#  define BBX_UNROLL _Pragma("unroll")
#endif

// Dynamic-precondition checks: active on the CPU simulator, with BBX_CHECKED, and in unoptimised
// debug builds; compiled out of optimised device code (-O1 and up define __OPTIMIZE__, also in
// nvcc's and clang's device passes; bbx builds GPU code with -O3 and without NDEBUG, where a
// check in a GEMM's main loop cost ~20% of its instructions). Static violations use
// static_assert instead.
#if defined(BBX_TARGET_CPU) || defined(BBX_CHECKED) || (!defined(NDEBUG) && !defined(__OPTIMIZE__))
#  define BBX_ASSERTS_ENABLED 1
#endif

namespace bbx {
// `static_assert(dependent_false<Meta>, "...")`: a static error raised only when instantiated.
template <class...>
inline constexpr bool dependent_false = false;

// The thread count of a block whose extents are the types X, Y, Z: their product when all are
// static integers (types with a `value`), else 1024, the most any target allows.
template <class X, class Y = void, class Z = void>
struct block_threads {
  template <class T>
  static constexpr long long extent() {
    if constexpr (std::is_void_v<T>) {
      return 1;
    } else if constexpr (requires { T::value; }) {
      return static_cast<long long>(T::value);
    } else {
      return -1;
    }
  }
  // whether `value` is the block's exact thread count (every extent is static)
  static constexpr bool exact = extent<X>() >= 0 && extent<Y>() >= 0 && extent<Z>() >= 0;
  static constexpr long long value = exact ? extent<X>() * extent<Y>() * extent<Z>() : 1024;
};
template <class X, class Y = void, class Z = void>
using block_threads_t = block_threads<X, Y, Z>;
template <class Block>
inline constexpr int max_threads_v = static_cast<int>(Block::value);

// A block type with the `launch(min_blocks_per_mp=k)` hint; MinBlocks is a static integer type.
template <class Block, class MinBlocks>
struct with_min_blocks : Block {
  static constexpr bool is_static = requires { MinBlocks::value; };
  static_assert(is_static,
                "launch(min_blocks_per_mp=...): the value must be known at compile time "
                "(a literal or a Constexpr)");
  static constexpr int min_blocks = [] {
    if constexpr (is_static) return static_cast<int>(MinBlocks::value);
    else return 0;
  }();
  static_assert(min_blocks >= 0, "launch(min_blocks_per_mp=...) must not be negative");
};
template <class Block>
inline constexpr int min_blocks_v = [] {
  if constexpr (requires { Block::min_blocks; }) return Block::min_blocks;
  else return 0;
}();
// AMD: the blocks' 64-lane waves over the CU's 4 SIMDs (execution units), from 1 (no
// constraint) to 8 (the most a CDNA SIMD holds).
template <class Block>
inline constexpr int min_waves_per_eu_v = [] {
  constexpr int waves_per_block = (max_threads_v<Block> + 63) / 64;
  constexpr int waves = (min_blocks_v<Block> * waves_per_block + 3) / 4;
  return waves < 1 ? 1 : waves > 8 ? 8 : waves;
}();

// A Constexpr argument whose Python value has no C++ form (a string, None, a config object):
// generated code reads it only through Meta members, so it travels as this empty tag.
struct python_only_value {};
}  // namespace bbx

#if defined(BBX_TARGET_CPU)
#  include <cstdio>
#  include <cstdlib>
#endif

namespace bbx::detail {
#if defined(BBX_TARGET_CPU)
// The simulator installs a handler that reports the failing GPU thread and unwinds the launch;
// plain host code prints and aborts.
using assert_handler_t = void (*)(const char* what, const char* file, int line);
inline assert_handler_t& assert_handler() {
  static assert_handler_t handler = nullptr;
  return handler;
}
[[noreturn]] inline void assert_fail(const char* what, const char* file, int line) {
  if (assert_handler()) assert_handler()(what, file, line);
  std::fprintf(stderr, "%s:%d: bbx check failed: %s\n", file, line, what);
  std::abort();
}
#elif defined(BBX_TARGET_CUDA)
// nvcc: __builtin_trap is host-only; device code traps with __trap().
[[noreturn]] BBX_HOST_DEVICE void assert_fail(const char*, const char*, int) {
#  if defined(__CUDA_ARCH__)
  __trap();
  __builtin_unreachable();
#  else
  __builtin_trap();
#  endif
}
#else
[[noreturn]] BBX_HOST_DEVICE void assert_fail(const char*, const char*, int) { __builtin_trap(); }
#endif
}  // namespace bbx::detail

#if defined(BBX_ASSERTS_ENABLED)
#  define BBX_ASSERT(cond, what) \
    ((cond) ? static_cast<void>(0) : ::bbx::detail::assert_fail(what, __FILE__, __LINE__))
#else
#  define BBX_ASSERT(cond, what) static_cast<void>(0)
#endif
