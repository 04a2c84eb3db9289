// bbx/platform/integer_hooks.hpp — integer operations whose best form depends on the target
// (bbx/intrinsics/bits.hpp):
//   arch::mul_hi_64(a, b)   the high 64 bits of the 128-bit product of two 64-bit integers
//                           (CUDA device code: __mul64hi / __umul64hi; elsewhere __int128)
#pragma once

#include <cstdint>
#include <type_traits>

#include "bbx/config.hpp"

namespace bbx::arch {

template <class T>
BBX_HOST_DEVICE T mul_hi_64(T a, T b) {
  static_assert(sizeof(T) == 8, "mul_hi_64: 64-bit integers");
#if defined(BBX_TARGET_CUDA) && defined(__CUDA_ARCH__)
  if constexpr (std::is_signed_v<T>) return static_cast<T>(__mul64hi(a, b));
  else return static_cast<T>(__umul64hi(a, b));
#else
  using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
  return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> 64);
#endif
}

}  // namespace bbx::arch
