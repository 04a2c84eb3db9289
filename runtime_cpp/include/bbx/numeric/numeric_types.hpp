// bbx/numeric/numeric_types.hpp — type tags, bit widths, integer aliases, limits, scalar `to<T>`.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric/half.hpp"

namespace bbx {

// Integer names used by generated code (the same entities as ::int8_t etc., so no ambiguity).
using std::int8_t;
using std::int16_t;
using std::int32_t;
using std::int64_t;
using std::uint8_t;
using std::uint16_t;
using std::uint32_t;
using std::uint64_t;

// A value standing for a type: generated code passes dtypes as `type_c<float>{}`.
template <class T>
struct type_c {
  using type = T;
};
template <class T> struct is_type_c : std::false_type {};
template <class T> struct is_type_c<type_c<T>> : std::true_type {};
template <class T> inline constexpr bool is_type_c_v = is_type_c<std::remove_cvref_t<T>>::value;
// `dtype_t<X>`: T for `type_c<T>`, else X itself (so `element_type_t<TensorX>{}` works as a dtype).
template <class X> struct dtype_of { using type = std::remove_cvref_t<X>; };
template <class T> struct dtype_of<type_c<T>> { using type = T; };
template <class X> using dtype_t = typename dtype_of<std::remove_cvref_t<X>>::type;

template <class A, class B>
BBX_HOST_DEVICE constexpr bool operator==(type_c<A>, type_c<B>) { return std::is_same_v<A, B>; }

// Bit width of an element type (CuTe: bool is 8 bits, half_t 16, ...).
template <class T, class = void>
struct sizeof_bits { static constexpr int value = static_cast<int>(sizeof(T) * 8); };
template <class T>
struct sizeof_bits<T, std::enable_if_t<is_type_c_v<T>>> : sizeof_bits<typename T::type> {};
template <class T> inline constexpr int sizeof_bits_v = sizeof_bits<std::remove_cv_t<T>>::value;

// Numeric classification.
template <class T> struct is_half_like : std::false_type {};
template <> struct is_half_like<half_t> : std::true_type {};
template <> struct is_half_like<bfloat16_t> : std::true_type {};
template <class T> inline constexpr bool is_half_like_v = is_half_like<std::remove_cv_t<T>>::value;
template <class T>
inline constexpr bool is_numeric_v = std::is_arithmetic_v<std::remove_cv_t<T>> || is_half_like_v<T>;
template <class T>
inline constexpr bool is_floating_v = std::is_floating_point_v<std::remove_cv_t<T>> || is_half_like_v<T>;
// The DSL's class properties of a numeric type (`dtype.is_float`, `.is_integer`, `.signed`);
// Boolean is an integer type, as in the DSL.
template <class T> inline constexpr bool is_float_v = is_floating_v<T>;
template <class T> inline constexpr bool is_integer_v = std::is_integral_v<std::remove_cv_t<T>>;
template <class T>
inline constexpr bool is_signed_v = is_floating_v<T> ||
    (std::is_signed_v<std::remove_cv_t<T>> && !std::is_same_v<std::remove_cv_t<T>, bool>);

// numeric_limits: std's for built-in types, explicit bit patterns for the 16-bit floats.
template <class T>
struct numeric_limits {
  BBX_HOST_DEVICE static constexpr T lowest() { return std::numeric_limits<T>::lowest(); }
  BBX_HOST_DEVICE static constexpr T max() { return std::numeric_limits<T>::max(); }
  BBX_HOST_DEVICE static constexpr T min() { return std::numeric_limits<T>::min(); }
  BBX_HOST_DEVICE static constexpr T infinity() { return std::numeric_limits<T>::infinity(); }
  BBX_HOST_DEVICE static constexpr T quiet_NaN() { return std::numeric_limits<T>::quiet_NaN(); }
  BBX_HOST_DEVICE static constexpr T epsilon() { return std::numeric_limits<T>::epsilon(); }
  static constexpr bool has_infinity = std::numeric_limits<T>::has_infinity;
  static constexpr bool is_signed = std::numeric_limits<T>::is_signed;
  static constexpr bool is_integer = std::numeric_limits<T>::is_integer;
};
template <>
struct numeric_limits<half_t> {
  BBX_HOST_DEVICE static constexpr half_t lowest() { return half_t::bitcast(0xfbffu); }
  BBX_HOST_DEVICE static constexpr half_t max() { return half_t::bitcast(0x7bffu); }
  BBX_HOST_DEVICE static constexpr half_t min() { return half_t::bitcast(0x0400u); }
  BBX_HOST_DEVICE static constexpr half_t infinity() { return half_t::bitcast(0x7c00u); }
  BBX_HOST_DEVICE static constexpr half_t quiet_NaN() { return half_t::bitcast(0x7e00u); }
  BBX_HOST_DEVICE static constexpr half_t epsilon() { return half_t::bitcast(0x1400u); }
  static constexpr bool has_infinity = true, is_signed = true, is_integer = false;
};
template <>
struct numeric_limits<bfloat16_t> {
  BBX_HOST_DEVICE static constexpr bfloat16_t lowest() { return bfloat16_t::bitcast(0xff7fu); }
  BBX_HOST_DEVICE static constexpr bfloat16_t max() { return bfloat16_t::bitcast(0x7f7fu); }
  BBX_HOST_DEVICE static constexpr bfloat16_t min() { return bfloat16_t::bitcast(0x0080u); }
  BBX_HOST_DEVICE static constexpr bfloat16_t infinity() { return bfloat16_t::bitcast(0x7f80u); }
  BBX_HOST_DEVICE static constexpr bfloat16_t quiet_NaN() { return bfloat16_t::bitcast(0x7fc0u); }
  BBX_HOST_DEVICE static constexpr bfloat16_t epsilon() { return bfloat16_t::bitcast(0x3c00u); }
  static constexpr bool has_infinity = true, is_signed = true, is_integer = false;
};

// Scalar conversion `to<T>(x)`: through float for the 16-bit floats, static_cast otherwise.
// (Values and tensors get their own overloads in bbx/tensor/value.hpp.)
template <class T, class U>
  requires(is_numeric_v<T> && is_numeric_v<U>)
BBX_HOST_DEVICE T to(U x) {
  if constexpr (std::is_same_v<T, U>) {
    return x;
  } else if constexpr (is_half_like_v<T>) {
    if constexpr (std::is_same_v<U, double>) return T(x);
    else return T(static_cast<float>(x));
  } else if constexpr (is_half_like_v<U>) {
    return static_cast<T>(static_cast<float>(x));
  } else {
    return static_cast<T>(x);
  }
}
// `to<T>` also accepts a `type_c<T>` target through `to<dtype_t<X>>`; nothing else is needed.

}  // namespace bbx
