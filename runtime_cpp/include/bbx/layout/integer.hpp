// bbx/layout/integer.hpp — static integers (`C<v>`, `Int<N>`, `_4`), traits and integer helpers.
//
// Arithmetic between two static integers yields a static integer (a type); arithmetic that mixes a
// static integer with a run-time integer yields a run-time integer (through the implicit
// conversion of C<v> to its value type). The only exceptions are the absorbing cases
// `_0 * x`, `x * _0`, `_0 / x` and `x % _1`, which stay static `_0` as in CuTe.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "../config.hpp"

namespace bbx {

template <auto v>
struct C {
  using type = C<v>;
  using value_type = decltype(v);
  static constexpr value_type value = v;
  BBX_HOST_DEVICE constexpr operator value_type() const noexcept { return v; }
  BBX_HOST_DEVICE constexpr value_type operator()() const noexcept { return v; }
};

template <int N>
using Int = C<N>;
template <bool B>
using bool_constant = C<B>;
using true_type = C<true>;
using false_type = C<false>;

// clang-format off
using _m1 = Int<-1>;
using _0 = Int<0>;   using _1 = Int<1>;   using _2 = Int<2>;   using _3 = Int<3>;
using _4 = Int<4>;   using _5 = Int<5>;   using _6 = Int<6>;   using _7 = Int<7>;
using _8 = Int<8>;   using _9 = Int<9>;   using _10 = Int<10>; using _11 = Int<11>;
using _12 = Int<12>; using _13 = Int<13>; using _14 = Int<14>; using _15 = Int<15>;
using _16 = Int<16>; using _17 = Int<17>; using _18 = Int<18>; using _19 = Int<19>;
using _20 = Int<20>; using _21 = Int<21>; using _22 = Int<22>; using _23 = Int<23>;
using _24 = Int<24>; using _25 = Int<25>; using _26 = Int<26>; using _27 = Int<27>;
using _28 = Int<28>; using _29 = Int<29>; using _30 = Int<30>; using _31 = Int<31>;
using _32 = Int<32>; using _48 = Int<48>; using _64 = Int<64>; using _96 = Int<96>;
using _128 = Int<128>;   using _256 = Int<256>;   using _512 = Int<512>;   using _1024 = Int<1024>;
using _2048 = Int<2048>; using _4096 = Int<4096>; using _8192 = Int<8192>;
// clang-format on

// ---- traits -------------------------------------------------------------------------------
template <class T>
struct is_C : std::false_type {};
template <auto v>
struct is_C<C<v>> : std::true_type {};
template <class T>
inline constexpr bool is_C_v = is_C<std::remove_cvref_t<T>>::value;

// Static = carries no run-time state (CuTe's definition): C<v>, tuples of those, static layouts.
template <class T>
inline constexpr bool is_static_v = std::is_empty_v<std::remove_cvref_t<T>>;
template <class T>
struct is_static : std::bool_constant<is_static_v<T>> {};

// std integral types and static integers.
template <class T>
struct is_integral
    : std::bool_constant<std::is_integral_v<std::remove_cvref_t<T>> || is_C_v<T>> {};
template <class T>
inline constexpr bool is_integral_v = is_integral<T>::value;

namespace detail {
// gcd(|a|, |b|) of run-time or constexpr integers (gcd(0, b) == |b|).
BBX_HOST_DEVICE constexpr long long gcd_ll(long long a, long long b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b != 0) {
    long long t = a % b;
    a = b;
    b = t;
  }
  return a;
}
}  // namespace detail

// is_constant_v<n, T>: T is a static integer equal to n.
namespace detail {
template <auto n, class T>
struct is_constant_impl : std::false_type {};
template <auto n, auto v>
struct is_constant_impl<n, C<v>> : std::bool_constant<(v == n)> {};
}  // namespace detail
template <auto n, class T>
inline constexpr bool is_constant_v = detail::is_constant_impl<n, std::remove_cvref_t<T>>::value;
template <auto n, class T>
struct is_constant : std::bool_constant<is_constant_v<n, T>> {};

// Run-time value type of an integer (C<v> -> decltype(v)); common run-time type of several.
template <class T>
struct dynamic_type {
  using type = std::remove_cvref_t<T>;
};
template <auto v>
struct dynamic_type<C<v>> {
  using type = decltype(v);
};
template <class... Ts>
using dynamic_t = std::common_type_t<typename dynamic_type<std::remove_cvref_t<Ts>>::type...>;

// ---- operators ------------------------------------------------------------------------------
#define BBX_C_UNARY(OP)                                        \
  template <auto a>                                            \
  BBX_HOST_DEVICE constexpr C<(OP a)> operator OP(C<a>) noexcept { \
    return {};                                                 \
  }
BBX_C_UNARY(-)
BBX_C_UNARY(+)
BBX_C_UNARY(~)
BBX_C_UNARY(!)
#undef BBX_C_UNARY

#define BBX_C_BINARY(OP)                                                 \
  template <auto a, auto b>                                              \
  BBX_HOST_DEVICE constexpr C<(a OP b)> operator OP(C<a>, C<b>) noexcept { \
    return {};                                                           \
  }
BBX_C_BINARY(+)
BBX_C_BINARY(-)
BBX_C_BINARY(*)
BBX_C_BINARY(/)
BBX_C_BINARY(%)
BBX_C_BINARY(&)
BBX_C_BINARY(|)
BBX_C_BINARY(^)
BBX_C_BINARY(<<)
BBX_C_BINARY(>>)
BBX_C_BINARY(&&)
BBX_C_BINARY(||)
BBX_C_BINARY(==)
BBX_C_BINARY(!=)
BBX_C_BINARY(<)
BBX_C_BINARY(>)
BBX_C_BINARY(<=)
BBX_C_BINARY(>=)
#undef BBX_C_BINARY

// Absorbing cases that stay static even with a run-time operand (declared on C<0> / C<1> directly
// so that other expressions never pay for a constraint check).
template <class U>
  requires std::is_integral_v<U>
BBX_HOST_DEVICE constexpr C<0> operator*(C<0>, U) noexcept {
  return {};
}
template <class U>
  requires std::is_integral_v<U>
BBX_HOST_DEVICE constexpr C<0> operator*(U, C<0>) noexcept {
  return {};
}
template <class U>
  requires std::is_integral_v<U>
BBX_HOST_DEVICE constexpr C<0> operator/(C<0>, U) noexcept {
  return {};
}
template <class U>
  requires std::is_integral_v<U>
BBX_HOST_DEVICE constexpr C<0> operator%(U, C<1>) noexcept {
  return {};
}

// ---- integer helpers (static in, static out) --------------------------------------------------
template <class A, class B>
BBX_HOST_DEVICE constexpr auto min(A const& a, B const& b) {
  if constexpr (is_C_v<A> && is_C_v<B>) {
    return C<(A::value < B::value ? A::value : B::value)>{};
  } else {
    using R = dynamic_t<A, B>;
    return R(a) < R(b) ? R(a) : R(b);
  }
}
template <class A, class B>
BBX_HOST_DEVICE constexpr auto max(A const& a, B const& b) {
  if constexpr (is_C_v<A> && is_C_v<B>) {
    return C<(A::value < B::value ? B::value : A::value)>{};
  } else {
    using R = dynamic_t<A, B>;
    return R(a) < R(b) ? R(b) : R(a);
  }
}
template <class A>
BBX_HOST_DEVICE constexpr auto abs(A const& a) {
  if constexpr (is_C_v<A>) {
    return C<(A::value < 0 ? -A::value : A::value)>{};
  } else {
    return a < 0 ? -a : a;
  }
}
template <class A>
BBX_HOST_DEVICE constexpr auto signum(A const& a) {
  if constexpr (is_C_v<A>) {
    return C<int((A::value > 0) - (A::value < 0))>{};
  } else {
    return int((a > 0) - (a < 0));
  }
}
// Run-time-safe conditional select: static condition picks a type, dynamic picks a value.
template <class Cond, class A, class B>
BBX_HOST_DEVICE constexpr auto conditional_return(Cond const& c, A const& a, B const& b) {
  if constexpr (is_C_v<Cond>) {
    if constexpr (Cond::value) {
      return a;
    } else {
      return b;
    }
  } else {
    using R = dynamic_t<A, B>;
    return c ? R(a) : R(b);
  }
}

}  // namespace bbx
