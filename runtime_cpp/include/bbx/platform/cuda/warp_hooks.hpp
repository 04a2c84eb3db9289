// bbx/platform/cuda/warp_hooks.hpp — the DSL's warp functions on CUDA: __activemask,
// __syncwarp, redux.sync (sm_80) for 32-bit integers and butterflies otherwise.
// See platform/warp_hooks.hpp.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/intrinsics/redux.hpp"
#include "bbx/platform.hpp"

namespace bbx::arch {

BBX_DEVICE unsigned activemask() {
#if defined(__CUDA_ARCH__)
  return __activemask();
#else
  return 0u;
#endif
}
BBX_DEVICE void sync_warp() {
#if defined(__CUDA_ARCH__)
  __syncwarp();
#endif
}
BBX_DEVICE bool vote_uni(bool pred) {
  const unsigned b = vote_ballot(pred);
  return b == 0u || b == activemask();
}

template <class Kind, bool Abs = false, bool NaN = false, class T>
BBX_DEVICE T warp_redux_sync(T v) {
  v = detail::redux_input<Abs>(v);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
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
#endif
  BBX_UNROLL
  for (int m = 16; m >= 1; m >>= 1) v = detail::redux_combine<Kind, NaN>(v, shuffle_sync_bfly(v, m));
  return v;
}

}  // namespace bbx::arch
