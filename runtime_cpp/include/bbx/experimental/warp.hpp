// bbx/experimental/warp.hpp — the warp-level functions of `cutlass.experimental.primitives`
// that the platform and bbx/intrinsics do not already provide, over the DSL's 32-lane warp
// (half an AMD wavefront: DESIGN.md "Warp size"):
//
//   shfl_sync_and_valid<Mode>(v, b, mask_and_clamp c)   `shfl_sync(..., return_value_and_is_valid=
//                                  True)`: {value, is_valid}; is_valid is PTX's predicate (the
//                                  source lane was inside the segment / clamp range)
//   vote_sync_ballot(pred)         the ballot of the warp as the DSL's Int32
//   match_any_sync(v)              the lanes of the warp whose v equals the caller's (Int32 mask)
//   match_all_sync(v)              {mask, pred}: all active lanes' mask and true when every lane
//                                  holds the same v, {0, false} otherwise
//   redux_sync<reduction_kind, Abs, NaN>(v)   `redux_sync`: bbx/intrinsics' warp reduction
//   bar_warp_sync(mask)            a rendezvous and memory fence of the lanes in `mask` (which
//                                  must contain the caller)
//
// Shuffles, votes and warp reductions themselves are the platform's / intrinsics' (arch::
// shuffle_sync*, arch::vote_*, arch::warp_redux_sync). The member masks the DSL takes are the
// whole warp on every target: every lane of the warp executes these.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/intrinsics/warp.hpp"
#include "bbx/layout/tuple.hpp"
#include "bbx/platform.hpp"

#if defined(BBX_TARGET_CPU)
#  include "bbx/experimental/sim_rendezvous.hpp"
#endif

namespace bbx::experimental {

// ---- shuffles with PTX's validity predicate ----------------------------------------------
struct shfl_idx {};
struct shfl_up {};
struct shfl_down {};
struct shfl_bfly {};

// {value, is_valid}: a bbx::tuple, so that it unpacks like the DSL's pair.
template <class T>
using shfl_result = tuple<T, bool>;

namespace detail {
template <class Mode>
inline constexpr ::bbx::detail::shfl_mode mode_v =
    std::is_same_v<Mode, shfl_up>     ? ::bbx::detail::shfl_mode::up
    : std::is_same_v<Mode, shfl_down> ? ::bbx::detail::shfl_mode::down
    : std::is_same_v<Mode, shfl_bfly> ? ::bbx::detail::shfl_mode::bfly
                                      : ::bbx::detail::shfl_mode::idx;

// Bitwise equality (what PTX match.sync compares).
template <class T>
BBX_HOST_DEVICE bool same_bits(T const& a, T const& b) {
  const auto x = ::bbx::detail::LaneWords<T>::from(a), y = ::bbx::detail::LaneWords<T>::from(b);
  for (int i = 0; i < ::bbx::detail::LaneWords<T>::count; ++i)
    if (x.w[i] != y.w[i]) return false;
  return true;
}

// PTX shfl.sync: whether lane `lane` (0..31) reads a lane inside its range for operands b, c
// (c[12:8] segment mask, c[4:0] clamp). Where it is false the lane keeps its own value.
BBX_HOST_DEVICE constexpr bool ptx_shfl_in_range(::bbx::detail::shfl_mode mode, int lane, int b,
                                                 int c) {
  const int segmask = (c >> 8) & 31, clamp = c & 31, bval = b & 31;
  const int min_lane = lane & segmask;
  const int max_lane = min_lane | (clamp & ~segmask);
  switch (mode) {
    case ::bbx::detail::shfl_mode::up: return lane - bval >= max_lane;
    case ::bbx::detail::shfl_mode::down: return lane + bval <= max_lane;
    case ::bbx::detail::shfl_mode::bfly: return (lane ^ bval) <= max_lane;
    case ::bbx::detail::shfl_mode::idx: return (min_lane | (bval & ~segmask)) <= max_lane;
  }
  return false;
}

template <class Mode, class T>
BBX_DEVICE T shfl_clamped(T const& v, int b, arch::mask_and_clamp c) {
  if constexpr (std::is_same_v<Mode, shfl_up>) return arch::shuffle_sync_up(v, b, c);
  else if constexpr (std::is_same_v<Mode, shfl_down>) return arch::shuffle_sync_down(v, b, c);
  else if constexpr (std::is_same_v<Mode, shfl_bfly>) return arch::shuffle_sync_bfly(v, b, c);
  else return arch::shuffle_sync(v, b, c);
}
}  // namespace detail

template <class Mode, class T>
BBX_DEVICE shfl_result<T> shfl_sync_and_valid(T const& v, int b, arch::mask_and_clamp c) {
  const T value = detail::shfl_clamped<Mode>(v, b, c);
  return shfl_result<T>(value,
                        detail::ptx_shfl_in_range(detail::mode_v<Mode>, arch::lane_idx(), b, c.c));
}

// ---- votes and matches ----------------------------------------------------------------------
template <class P>
BBX_DEVICE int32_t vote_sync_ballot(P const& pred) {
  return static_cast<int32_t>(arch::vote_ballot(static_cast<bool>(pred)));
}

// {mask, pred} of match.all (a bbx::tuple, as the DSL returns a pair).
using match_all_result = tuple<int32_t, bool>;

#if defined(BBX_TARGET_CPU)
namespace detail {
template <class T>
struct match_out {
  int32_t mask;
  bool pred;
};
template <bool All, class T>
inline match_out<T> match_sync_sim(T const& v, std::source_location const& loc) {
  static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "match_sync: a 32- or 64-bit value");
  return sim::wave_collective<T, match_out<T>>(
      v, 32,
      [](const T* const* ins, match_out<T>* const* outs, int n) BBX_INLINE {
        std::uint32_t present = 0;
        for (int i = 0; i < n; ++i)
          if (ins[i]) present |= 1u << i;
        for (int i = 0; i < n; ++i) {
          if (!ins[i]) continue;
          std::uint32_t same = 0;
          for (int j = 0; j < n; ++j)
            if (ins[j] && same_bits(*ins[i], *ins[j])) same |= 1u << j;
          if constexpr (All) {
            const bool all = same == present;
            *outs[i] = {all ? static_cast<int32_t>(present) : 0, all};
          } else {
            *outs[i] = {static_cast<int32_t>(same), false};
          }
        }
      },
      All ? "match_all_sync" : "match_any_sync", loc);
}
}  // namespace detail

template <class T>
inline int32_t match_any_sync(T const& v,
                              std::source_location loc = std::source_location::current()) {
  return detail::match_sync_sim<false>(v, loc).mask;
}
template <class T>
inline match_all_result match_all_sync(
    T const& v, std::source_location loc = std::source_location::current()) {
  const auto r = detail::match_sync_sim<true>(v, loc);
  return match_all_result(r.mask, r.pred);
}
#else

// The lanes holding the caller's value: each round takes the lowest lane not yet matched and
// finds every lane equal to its value (rounds = distinct values in the warp).
template <class T>
BBX_DEVICE int32_t match_any_sync(T const& v) {
#  if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  return static_cast<int32_t>(__match_any_sync(0xffffffffu, v));
#  else
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "match_sync: a 32- or 64-bit value");
  unsigned remaining = arch::activemask();
  unsigned mine = 0;
  while (remaining != 0u) {
    const int leader = __builtin_ctz(remaining);
    const T lv = arch::shuffle_sync(v, leader);
    const bool same = detail::same_bits(v, lv);
    const unsigned group = arch::vote_ballot(same) & remaining;
    if (same) mine = group;
    remaining &= ~group;
  }
  return static_cast<int32_t>(mine);
#  endif
}
template <class T>
BBX_DEVICE match_all_result match_all_sync(T const& v) {
#  if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  int pred = 0;
  const unsigned m = __match_all_sync(0xffffffffu, v, &pred);
  return match_all_result(static_cast<int32_t>(m), pred != 0);
#  else
  const T first = arch::shuffle_sync(v, __builtin_ctz(arch::activemask()));
  const bool all = arch::vote_all(detail::same_bits(v, first));
  return match_all_result(all ? static_cast<int32_t>(arch::activemask()) : 0, all);
#  endif
}
#endif

// ---- redux.sync --------------------------------------------------------------------------------
// The DSL's ReductionKind (an IntEnum: its values), mapped onto bbx/intrinsics' warp reductions.
enum class reduction_kind : int {
  add = 1, and_ = 2, max = 3, min = 4, or_ = 5, umax = 6, umin = 7, xor_ = 8, fmin = 9, fmax = 10
};
// A ReductionKind given as the DSL's integer (a Constexpr argument).
BBX_HOST_DEVICE constexpr reduction_kind reduction_kind_of(int v) { return static_cast<reduction_kind>(v); }

namespace detail {
template <reduction_kind K>
struct redux_tag;
template <> struct redux_tag<reduction_kind::add> { using type = arch::redux_add; };
template <> struct redux_tag<reduction_kind::and_> { using type = arch::redux_and; };
template <> struct redux_tag<reduction_kind::max> { using type = arch::redux_max; };
template <> struct redux_tag<reduction_kind::min> { using type = arch::redux_min; };
template <> struct redux_tag<reduction_kind::or_> { using type = arch::redux_or; };
template <> struct redux_tag<reduction_kind::umax> { using type = arch::redux_umax; };
template <> struct redux_tag<reduction_kind::umin> { using type = arch::redux_umin; };
template <> struct redux_tag<reduction_kind::xor_> { using type = arch::redux_xor; };
template <> struct redux_tag<reduction_kind::fmin> { using type = arch::redux_fmin; };
template <> struct redux_tag<reduction_kind::fmax> { using type = arch::redux_fmax; };
}  // namespace detail

// `redux_sync(v, kind, ..., abs=, nan=)`: the reduction of v over the 32 lanes (every lane gets it).
#if defined(BBX_TARGET_CPU)
template <reduction_kind K, bool Abs = false, bool NaN = false, class T>
inline T redux_sync(T v, std::source_location loc = std::source_location::current()) {
  return arch::warp_redux_sync<typename detail::redux_tag<K>::type, Abs, NaN>(v, loc);
}
#else
template <reduction_kind K, bool Abs = false, bool NaN = false, class T>
BBX_DEVICE T redux_sync(T v) {
  return arch::warp_redux_sync<typename detail::redux_tag<K>::type, Abs, NaN>(v);
}
#endif

// ---- bar.warp.sync ----------------------------------------------------------------------------
#if defined(BBX_TARGET_CPU)
inline void bar_warp_sync(unsigned mask,
                          std::source_location loc = std::source_location::current()) {
  sim_detail::warp_rendezvous(mask, loc);
}
#elif defined(BBX_TARGET_CUDA)
BBX_DEVICE void bar_warp_sync(unsigned mask) {
#  if defined(__CUDA_ARCH__)
  __syncwarp(mask);
#  else
  (void)mask;
#  endif
}
#else
// The lanes of a wavefront execute in lockstep: a subset of a DSL warp is ordered by a
// wave-level barrier with a release / acquire fence around it.
BBX_DEVICE void bar_warp_sync(unsigned mask) {
  (void)mask;
  arch::sync_warp();
}
#endif

}  // namespace bbx::experimental
