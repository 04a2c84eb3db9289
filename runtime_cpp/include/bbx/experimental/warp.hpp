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
// whole warp on every target: every lane of the warp executes these. match_any_sync,
// match_all_sync and bar_warp_sync differ per target: platform/warp_match_hooks.hpp.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/experimental/warp_match.hpp"
#include "bbx/intrinsics/warp.hpp"
#include "bbx/layout/tuple.hpp"
#include "bbx/platform.hpp"
#include "bbx/platform/source_site.hpp"
#include "bbx/platform/warp_match_hooks.hpp"  // match_any_sync, match_all_sync, bar_warp_sync

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
// match_any_sync, match_all_sync: platform/warp_match_hooks.hpp

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
template <reduction_kind K, bool Abs = false, bool NaN = false, class T>
BBX_DEVICE T redux_sync(T v BBX_SIM_LOC_DEFAULT) {
  return arch::warp_redux_sync<typename detail::redux_tag<K>::type, Abs, NaN>(v BBX_SIM_LOC_ARG);
}

}  // namespace bbx::experimental
