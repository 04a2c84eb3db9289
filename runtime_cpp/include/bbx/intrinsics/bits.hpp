// bbx/intrinsics/bits.hpp — the DSL's integer bit operations (`cute.arch.popc`, `clz`, `brev`,
// `bfind`, `bfe`, `bfi`, `mul_hi`, `mul_wide`) with PTX's semantics, on 32- and 64-bit integers.
//
//   popc(x)               set bits, in x's type
//   clz(x)                leading zero bits (0..32 / 0..64), uint32_t
//   brev(x)               bits reversed, x's type
//   bfind(x)              position of the most significant bit that differs from the sign bit
//                         (a signed x) or of the most significant 1 (unsigned); 0xffffffff if none
//   bfe(x, start, len)    the field [start, start+len) right-justified; signed x: sign-extended
//                         from the field's top bit (PTX bfe, start and len taken mod 256)
//   bfi(r, x, start, len) x with the field [start, start+len) replaced by r's low bits
//   mul_hi(a, b)          the high half of the full product; mul_wide(a, b): the full product of
//                         two 16- or 32-bit integers in the twice wider type
//
// Every target compiles these from plain integer operations and the compiler's builtins (AMD:
// s_bcnt1 / v_bcnt, v_ffbh, v_bfrev, v_bfe, v_mul_hi; NVIDIA: popc, clz, brev, bfe, mul.hi).
#pragma once

#include <cstdint>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/platform/integer_hooks.hpp"

namespace bbx::arch {

namespace detail {
template <class T>
inline constexpr bool is_word_v =
    std::is_integral_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);
template <class T>
using unsigned_of = std::make_unsigned_t<T>;
}  // namespace detail

template <class T>
  requires(detail::is_word_v<T>)
BBX_HOST_DEVICE T popc(T x) {
  const auto u = static_cast<detail::unsigned_of<T>>(x);
  if constexpr (sizeof(T) == 8) return static_cast<T>(__builtin_popcountll(u));
  else return static_cast<T>(__builtin_popcount(u));
}

template <class T>
  requires(detail::is_word_v<T>)
BBX_HOST_DEVICE std::uint32_t clz(T x) {
  const auto u = static_cast<detail::unsigned_of<T>>(x);
  if (u == 0) return sizeof(T) * 8;
  if constexpr (sizeof(T) == 8) return static_cast<std::uint32_t>(__builtin_clzll(u));
  else return static_cast<std::uint32_t>(__builtin_clz(u));
}

template <class T>
  requires(detail::is_word_v<T>)
BBX_HOST_DEVICE T brev(T x) {
  using U = detail::unsigned_of<T>;
  U u = static_cast<U>(x);
#if defined(__clang__)
  if constexpr (sizeof(T) == 8) u = __builtin_bitreverse64(u);
  else u = __builtin_bitreverse32(u);
#else
  U r = 0;
  for (int i = 0; i < int(sizeof(T) * 8); ++i) {
    r = static_cast<U>((r << 1) | (u & 1u));
    u >>= 1;
  }
  u = r;
#endif
  return static_cast<T>(u);
}

// The DSL returns Int32 for a Uint32 operand and Uint32 otherwise (its bfind.u32 wrapper).
template <class T>
  requires(detail::is_word_v<T>)
BBX_HOST_DEVICE auto bfind(T x) {
  using R = std::conditional_t<std::is_same_v<T, std::uint32_t>, std::int32_t, std::uint32_t>;
  using U = detail::unsigned_of<T>;
  U u = static_cast<U>(x);
  if constexpr (std::is_signed_v<T>) {
    if (x < 0) u = static_cast<U>(~u);  // the most significant bit that differs from the sign
  }
  if (u == 0) return static_cast<R>(0xffffffffu);
  return static_cast<R>(sizeof(T) * 8 - 1 - clz(u));
}

template <class T, class S, class L>
  requires(detail::is_word_v<T>)
BBX_HOST_DEVICE T bfe(T x, S const& start, L const& length) {
  using U = detail::unsigned_of<T>;
  constexpr int bits = int(sizeof(T) * 8), msb = bits - 1;
  const int pos = static_cast<int>(start) & 0xff, len = static_cast<int>(length) & 0xff;
  const U u = static_cast<U>(x);
  bool sign = false;
  if constexpr (std::is_signed_v<T>) {
    if (len != 0) {
      const int top = pos + len - 1 < msb ? pos + len - 1 : msb;
      sign = ((u >> top) & 1u) != 0;
    }
  }
  // the bits taken from x: i < len and pos + i <= msb
  const int n = pos > msb ? 0 : (len < bits - pos ? len : bits - pos);
  U field = n == 0 ? U(0) : static_cast<U>(u >> pos);
  if (n > 0 && n < bits) field &= static_cast<U>((U(1) << n) - 1u);
  if (sign && n < bits) field |= static_cast<U>(~U(0) << n);
  return static_cast<T>(field);
}

template <class T, class V, class S, class L>
  requires(detail::is_word_v<T>)
BBX_HOST_DEVICE T bfi(V const& replacement, T x, S const& start, L const& length) {
  using U = detail::unsigned_of<T>;
  constexpr int bits = int(sizeof(T) * 8), msb = bits - 1;
  const int pos = static_cast<int>(start) & 0xff, len = static_cast<int>(length) & 0xff;
  const int n = pos > msb ? 0 : (len < bits - pos ? len : bits - pos);
  if (n == 0) return x;
  const U ones = n >= bits ? ~U(0) : static_cast<U>((U(1) << n) - 1u);
  const U mask = static_cast<U>(ones << pos);
  const U r = static_cast<U>(static_cast<U>(static_cast<T>(replacement)) << pos);
  return static_cast<T>((static_cast<U>(x) & ~mask) | (r & mask));
}

template <class T>
  requires(detail::is_word_v<T>)
BBX_HOST_DEVICE T mul_hi(T a, T b) {
  if constexpr (sizeof(T) == 4) {
    using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> 32);
  } else {
    return mul_hi_64(a, b);
  }
}

template <class T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 2 || sizeof(T) == 4))
BBX_HOST_DEVICE auto mul_wide(T a, T b) {
  using W = std::conditional_t<
      sizeof(T) == 2, std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>,
      std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;
  return static_cast<W>(static_cast<W>(a) * static_cast<W>(b));
}

}  // namespace bbx::arch
