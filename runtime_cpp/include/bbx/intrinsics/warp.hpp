// bbx/intrinsics/warp.hpp — the DSL's warp-level functions beyond the platform core, for its
// 32-lane warp (half an AMD wavefront: see DESIGN.md "Warp size"):
//
//   lanemask_eq/lt/le/gt/ge()      32-bit masks of lanes relative to the caller's lane
//   activemask()                   the lanes of the caller's warp that are executing
//   vote_uni(pred)                 whether pred has the same value in every active lane
//   sync_warp()                    a barrier and memory fence among the lanes of the warp
//   warp_redux_sync<Kind, Abs, NaN>(v)   the reduction of v over the warp (every lane gets it):
//                                  redux_add, redux_and, redux_or, redux_xor, redux_max,
//                                  redux_min, redux_umax, redux_umin, redux_fmax, redux_fmin
//   warpsize()                     32
//
// AMD: exec mask, ballots and DPP / ds_swizzle butterflies (the platform's shuffles);
// CUDA: the PTX special registers, __syncwarp, redux.sync (sm_80) for 32-bit integers and
// butterflies otherwise; CPU simulator: wave collectives over the warp's lanes.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric/numeric_types.hpp"
#include "bbx/platform.hpp"

namespace bbx::arch {

// ---- lane masks ------------------------------------------------------------------------------
BBX_DEVICE unsigned lanemask_eq() { return 1u << lane_idx(); }
BBX_DEVICE unsigned lanemask_lt() { return (1u << lane_idx()) - 1u; }
BBX_DEVICE unsigned lanemask_le() {
  return static_cast<unsigned>((2ull << lane_idx()) - 1ull);
}
BBX_DEVICE unsigned lanemask_gt() { return ~lanemask_le(); }
BBX_DEVICE unsigned lanemask_ge() { return ~lanemask_lt(); }
BBX_DEVICE int warpsize() { return 32; }

#if defined(BBX_TARGET_AMD)
BBX_DEVICE unsigned activemask() {
  return static_cast<unsigned>(__builtin_amdgcn_read_exec() >> (detail::wave_lane() & 32));
}
// The wave's lanes run in lockstep: order the LDS and memory accesses around the point.
BBX_DEVICE void sync_warp() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
#elif defined(BBX_TARGET_CUDA)
BBX_DEVICE unsigned activemask() {
#  if defined(__CUDA_ARCH__)
  return __activemask();
#  else
  return 0u;
#  endif
}
BBX_DEVICE void sync_warp() {
#  if defined(__CUDA_ARCH__)
  __syncwarp();
#  endif
}
#else
// The simulator runs every lane of the block (lanes past its end do not exist).
inline unsigned activemask() {
  auto& t = sim::detail::cur("activemask");
  const int base = t.tid & ~31;
  const int n = std::min(32, t.blk->nthreads - base);
  return n == 32 ? 0xffffffffu : ((1u << n) - 1u);
}
inline void sync_warp(std::source_location loc = std::source_location::current()) {
  sim::wave_collective<char, char>(
      0, 32, [](const char* const*, char* const*, int) BBX_INLINE {}, "sync_warp", loc);
}
#endif

#if defined(BBX_TARGET_CPU)
inline bool vote_uni(bool pred, std::source_location loc = std::source_location::current()) {
  const unsigned b = vote_ballot(pred, loc);
  return b == 0u || b == activemask();
}
#else
BBX_DEVICE bool vote_uni(bool pred) {
  const unsigned b = vote_ballot(pred);
  return b == 0u || b == activemask();
}
#endif

// ---- warp reductions -------------------------------------------------------------------------
struct redux_add {};
struct redux_and {};
struct redux_or {};
struct redux_xor {};
struct redux_max {};
struct redux_min {};
struct redux_umax {};
struct redux_umin {};
struct redux_fmax {};
struct redux_fmin {};

namespace detail {
template <class Kind, bool NaN, class T>
BBX_HOST_DEVICE T redux_combine(T a, T b) {
  if constexpr (std::is_same_v<Kind, redux_add>) {
    return static_cast<T>(a + b);
  } else if constexpr (std::is_same_v<Kind, redux_and>) {
    return static_cast<T>(a & b);
  } else if constexpr (std::is_same_v<Kind, redux_or>) {
    return static_cast<T>(a | b);
  } else if constexpr (std::is_same_v<Kind, redux_xor>) {
    return static_cast<T>(a ^ b);
  } else if constexpr (is_floating_v<T>) {  // max/min/fmax/fmin of floats
    constexpr bool is_max = std::is_same_v<Kind, redux_max> || std::is_same_v<Kind, redux_fmax> ||
                            std::is_same_v<Kind, redux_umax>;
    if (a != a || b != b) {
      if constexpr (NaN) return a != a ? a : b;  // NaN propagates
      else return a != a ? b : a;                // maxNum / minNum: the other operand
    }
    return is_max ? (a < b ? b : a) : (b < a ? b : a);
  } else if constexpr (std::is_same_v<Kind, redux_umax> || std::is_same_v<Kind, redux_umin>) {
    using U = std::make_unsigned_t<T>;
    const U x = static_cast<U>(a), y = static_cast<U>(b);
    return std::is_same_v<Kind, redux_umax> ? (x < y ? b : a) : (y < x ? b : a);
  } else {  // max/min in T's own signedness (the DSL turns max into umax for unsigned types)
    return std::is_same_v<Kind, redux_max> ? (a < b ? b : a) : (b < a ? b : a);
  }
}
template <bool Abs, class T>
BBX_HOST_DEVICE T redux_input(T v) {
  if constexpr (Abs && is_floating_v<T>) return v < T(0) ? T(-v) : v;
  else return v;
}
}  // namespace detail

#if defined(BBX_TARGET_CPU)
template <class Kind, bool Abs = false, bool NaN = false, class T>
inline T warp_redux_sync(T v, std::source_location loc = std::source_location::current()) {
  return sim::wave_collective<T, T>(
      detail::redux_input<Abs>(v), 32,
      [](const T* const* ins, T* const* outs, int n) BBX_INLINE {
        bool any = false;
        T acc{};
        for (int i = 0; i < n; ++i) {
          if (!ins[i]) continue;
          acc = any ? detail::redux_combine<Kind, NaN>(acc, *ins[i]) : *ins[i];
          any = true;
        }
        for (int i = 0; i < n; ++i)
          if (outs[i]) *outs[i] = acc;
      },
      "warp_redux_sync", loc);
}
#else
template <class Kind, bool Abs = false, bool NaN = false, class T>
BBX_DEVICE T warp_redux_sync(T v) {
  v = detail::redux_input<Abs>(v);
#  if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_integral_v<T> && sizeof(T) == 4) {
    using U = std::make_unsigned_t<T>;
    constexpr bool unsigned_cmp = std::is_unsigned_v<T> || std::is_same_v<Kind, redux_umax> ||
                                  std::is_same_v<Kind, redux_umin>;
    using C = std::conditional_t<unsigned_cmp, unsigned, int>;
    const C x = static_cast<C>(static_cast<U>(v));
    if constexpr (std::is_same_v<Kind, redux_add>) return static_cast<T>(__reduce_add_sync(0xffffffffu, x));
    if constexpr (std::is_same_v<Kind, redux_and>) return static_cast<T>(__reduce_and_sync(0xffffffffu, static_cast<unsigned>(x)));
    if constexpr (std::is_same_v<Kind, redux_or>) return static_cast<T>(__reduce_or_sync(0xffffffffu, static_cast<unsigned>(x)));
    if constexpr (std::is_same_v<Kind, redux_xor>) return static_cast<T>(__reduce_xor_sync(0xffffffffu, static_cast<unsigned>(x)));
    if constexpr (std::is_same_v<Kind, redux_max> || std::is_same_v<Kind, redux_umax>)
      return static_cast<T>(__reduce_max_sync(0xffffffffu, x));
    if constexpr (std::is_same_v<Kind, redux_min> || std::is_same_v<Kind, redux_umin>)
      return static_cast<T>(__reduce_min_sync(0xffffffffu, x));
  }
#  endif
  BBX_UNROLL
  for (int m = 16; m >= 1; m >>= 1) v = detail::redux_combine<Kind, NaN>(v, shuffle_sync_bfly(v, m));
  return v;
}
#endif

}  // namespace bbx::arch
