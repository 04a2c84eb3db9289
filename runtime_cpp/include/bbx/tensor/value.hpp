// bbx/tensor/value.hpp — register values: what `t.load()` returns (CuTe DSL's TensorSSA).
//
// `Value<T, N>` is a fixed-size vector of N elements (N static), in the tensor's 1-D (column-major
// coordinate) order. Elementwise arithmetic, comparison, math, conversion `to<U>(v)`,
// `reduce(v, op, init)`, `where(p, a, b)` and `full_like(v, x)` are provided. Plain loops over
// a small array: after inlining, every element lives in its own register.
//
// Element type of mixed operations:
//   Value<T> op Value<U>  -> the C++ type of `T{} op U{}` (half_t op half_t stays half_t,
//                            half_t op float is float, int op float is float);
//   Value<T> op scalar S  -> T when T is floating or S is integral (a scalar is weakly typed,
//                            like a Python literal in the DSL); otherwise (integral T, floating S)
//                            the type of `T{} op S{}`.
#pragma once

#include <type_traits>

#include "bbx/config.hpp"
#include "bbx/numeric.hpp"
#include "bbx/algorithm/functional.hpp"
#include "bbx/tensor/bit_pointer.hpp"

namespace bbx {

// The elements of a Boolean value, packed 32 to a word like Boolean register tensors
// (bit_pointer.hpp). `p.load()` of a predicate tensor and `where(p, a, b)` then keep one word
// live and test each bit where it is selected on; as `bool[N]`, the compiler materialised every
// predicate at the load (sm_90, LayerNorm sample: 80 registers against 54).
template <int N>
struct packed_bools {
  unsigned words[(N + 31) / 32] = {};
  BBX_HOST_DEVICE constexpr bit_ref<false> operator[](int i) { return {words, i}; }
  BBX_HOST_DEVICE constexpr bool operator[](int i) const { return bool(bit_ref<true>{words, i}); }
};

template <class T, int N>
struct Value {
  static_assert(N > 0, "bbx::Value: empty value");
  using value_type = T;
  using element_type = T;
  static constexpr int size_v = N;
  std::conditional_t<std::is_same_v<T, bool>, packed_bools<N>, T[N]> v;

  // T& / T const& (a bit_ref / bool for Boolean values).
  BBX_HOST_DEVICE constexpr decltype(auto) operator[](int i) { return v[i]; }
  BBX_HOST_DEVICE constexpr decltype(auto) operator[](int i) const { return v[i]; }
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(int i) { return v[i]; }
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(int i) const { return v[i]; }
  BBX_HOST_DEVICE static constexpr Int<N> size() { return {}; }
  // `v.to<U>()` spelling (DSL: `x.to(dtype)`).
  template <class U>
  BBX_HOST_DEVICE Value<U, N> to() const {
    Value<U, N> r;
    BBX_UNROLL
    for (int i = 0; i < N; ++i) r.v[i] = ::bbx::to<U>(v[i]);
    return r;
  }
};

template <class T> struct is_value : std::false_type {};
template <class T, int N> struct is_value<Value<T, N>> : std::true_type {};
template <class T> inline constexpr bool is_value_v = is_value<std::remove_cvref_t<T>>::value;

template <class T, int N>
BBX_HOST_DEVICE constexpr Int<N> size(Value<T, N> const&) { return {}; }

namespace detail {
// The element type of `values OP scalar`, as the DSL promotes a TensorSSA and a Numeric: a wider
// float scalar widens the values (f16 values - Float32 -> f32, as a Python float literal is a
// Float32); an integer scalar takes the values' type; integer values and a float scalar give
// the float.
template <class T, class S>
using value_scalar_result_t = std::conditional_t<
    is_floating_v<T> && is_floating_v<S> && (sizeof(S) > sizeof(T)), S,
    std::conditional_t<is_floating_v<T> || std::is_integral_v<S> || std::is_same_v<S, bool>, T,
                       decltype(std::declval<T>() + std::declval<S>())>>;
template <class F, class T, int N>
BBX_HOST_DEVICE auto value_map(Value<T, N> const& a, F f) {
  using R = std::remove_cvref_t<decltype(f(a.v[0]))>;
  Value<R, N> r;
  BBX_UNROLL
  for (int i = 0; i < N; ++i) r.v[i] = f(a.v[i]);
  return r;
}
template <class F, class T, class U, int N>
BBX_HOST_DEVICE auto value_zip(Value<T, N> const& a, Value<U, N> const& b, F f) {
  using R = std::remove_cvref_t<decltype(f(a.v[0], b.v[0]))>;
  Value<R, N> r;
  BBX_UNROLL
  for (int i = 0; i < N; ++i) r.v[i] = f(a.v[i], b.v[i]);
  return r;
}
}  // namespace detail

// ---- arithmetic / bitwise -------------------------------------------------------------------
#define BBX_VALUE_BINARY(OP)                                                                  \
  template <class T, class U, int N>                                                          \
  BBX_HOST_DEVICE auto operator OP(Value<T, N> const& a, Value<U, N> const& b) {              \
    using R = std::remove_cvref_t<decltype(a.v[0] OP b.v[0])>;                                \
    return detail::value_zip(a, b, [](T const& x, U const& y) { return R(x OP y); });         \
  }                                                                                           \
  template <class T, int N, class S>                                                          \
    requires(is_numeric_v<S>)                                                                 \
  BBX_HOST_DEVICE auto operator OP(Value<T, N> const& a, S const& s) {                        \
    using R = detail::value_scalar_result_t<T, S>;                                            \
    const R rs = ::bbx::to<R>(s);                                                             \
    return detail::value_map(a, [rs](T const& x) { return R(::bbx::to<R>(x) OP rs); });       \
  }                                                                                           \
  template <class S, class T, int N>                                                          \
    requires(is_numeric_v<S>)                                                                 \
  BBX_HOST_DEVICE auto operator OP(S const& s, Value<T, N> const& a) {                        \
    using R = detail::value_scalar_result_t<T, S>;                                            \
    const R rs = ::bbx::to<R>(s);                                                             \
    return detail::value_map(a, [rs](T const& x) { return R(rs OP ::bbx::to<R>(x)); });       \
  }                                                                                           \
  template <class T, int N, class Rhs>                                                        \
  BBX_HOST_DEVICE Value<T, N>& operator OP##=(Value<T, N>& a, Rhs const& b) {                 \
    const auto r = a OP b;                                                                    \
    BBX_UNROLL                                                                                \
    for (int i = 0; i < N; ++i) a.v[i] = ::bbx::to<T>(r.v[i]);                                \
    return a;                                                                                 \
  }
BBX_VALUE_BINARY(+)
BBX_VALUE_BINARY(-)
BBX_VALUE_BINARY(*)
BBX_VALUE_BINARY(/)
BBX_VALUE_BINARY(%)
BBX_VALUE_BINARY(&)
BBX_VALUE_BINARY(|)
BBX_VALUE_BINARY(^)
BBX_VALUE_BINARY(<<)
BBX_VALUE_BINARY(>>)
#undef BBX_VALUE_BINARY

// ---- comparison -> Value<bool, N> -------------------------------------------------------------
#define BBX_VALUE_COMPARE(OP)                                                                 \
  template <class T, class U, int N>                                                          \
  BBX_HOST_DEVICE Value<bool, N> operator OP(Value<T, N> const& a, Value<U, N> const& b) {    \
    return detail::value_zip(a, b, [](T const& x, U const& y) { return bool(x OP y); });      \
  }                                                                                           \
  template <class T, int N, class S>                                                          \
    requires(is_numeric_v<S>)                                                                 \
  BBX_HOST_DEVICE Value<bool, N> operator OP(Value<T, N> const& a, S const& s) {             \
    using R = detail::value_scalar_result_t<T, S>;                                            \
    const R rs = ::bbx::to<R>(s);                                                             \
    return detail::value_map(a, [rs](T const& x) { return bool(::bbx::to<R>(x) OP rs); });    \
  }                                                                                           \
  template <class S, class T, int N>                                                          \
    requires(is_numeric_v<S>)                                                                 \
  BBX_HOST_DEVICE Value<bool, N> operator OP(S const& s, Value<T, N> const& a) {             \
    using R = detail::value_scalar_result_t<T, S>;                                            \
    const R rs = ::bbx::to<R>(s);                                                             \
    return detail::value_map(a, [rs](T const& x) { return bool(rs OP ::bbx::to<R>(x)); });    \
  }
BBX_VALUE_COMPARE(==)
BBX_VALUE_COMPARE(!=)
BBX_VALUE_COMPARE(<)
BBX_VALUE_COMPARE(<=)
BBX_VALUE_COMPARE(>)
BBX_VALUE_COMPARE(>=)
BBX_VALUE_COMPARE(&&)
BBX_VALUE_COMPARE(||)
#undef BBX_VALUE_COMPARE

template <class T, int N>
BBX_HOST_DEVICE Value<T, N> operator-(Value<T, N> const& a) {
  return detail::value_map(a, [](T const& x) { return T(-x); });
}
template <class T, int N>
BBX_HOST_DEVICE Value<T, N> operator+(Value<T, N> const& a) { return a; }
template <class T, int N>
BBX_HOST_DEVICE Value<bool, N> operator!(Value<T, N> const& a) {
  return detail::value_map(a, [](T const& x) { return !bool(x); });
}
template <class T, int N>
BBX_HOST_DEVICE Value<T, N> operator~(Value<T, N> const& a) {
  return detail::value_map(a, [](T const& x) { return T(~x); });
}

// ---- conversion, construction ---------------------------------------------------------------
template <class T, class U, int N>
BBX_HOST_DEVICE Value<T, N> to(Value<U, N> const& a) {
  return a.template to<T>();
}
template <class T, int N, class S>
BBX_HOST_DEVICE Value<T, N> full_like(Value<T, N> const&, S const& x) {
  Value<T, N> r;
  const T t = ::bbx::to<T>(x);
  BBX_UNROLL
  for (int i = 0; i < N; ++i) r.v[i] = t;
  return r;
}
// full_like(v, x, type_c<U>{}): same size, element type U.
template <class T, int N, class S, class U>
BBX_HOST_DEVICE Value<U, N> full_like(Value<T, N> const&, S const& x, type_c<U>) {
  Value<U, N> r;
  const U t = ::bbx::to<U>(x);
  BBX_UNROLL
  for (int i = 0; i < N; ++i) r.v[i] = t;
  return r;
}
template <class T, int N>
BBX_HOST_DEVICE Value<T, N> zeros_like(Value<T, N> const& a) { return full_like(a, 0); }
template <class T, int N>
BBX_HOST_DEVICE Value<T, N> ones_like(Value<T, N> const& a) { return full_like(a, 1); }

// ---- selection and reduction ------------------------------------------------------------------
namespace detail {
template <class X>
BBX_HOST_DEVICE decltype(auto) value_elem(X const& x, int i) {
  if constexpr (is_value_v<X>) return x.v[i];
  else return x;
}
template <class X> struct value_elem_type { using type = X; };
template <class T, int N> struct value_elem_type<Value<T, N>> { using type = T; };
}  // namespace detail

// where(pred, a, b): a or b elementwise; a, b are values or scalars (a scalar takes the other
// operand's element type).
template <class P, int N, class A, class B>
BBX_HOST_DEVICE auto where(Value<P, N> const& pred, A const& a, B const& b) {
  using TA = typename detail::value_elem_type<A>::type;
  using TB = typename detail::value_elem_type<B>::type;
  using R = std::conditional_t<is_value_v<A>, TA,
                               std::conditional_t<is_value_v<B>, TB, decltype(true ? TA{} : TB{})>>;
  Value<R, N> r;
  BBX_UNROLL
  for (int i = 0; i < N; ++i)
    r.v[i] = bool(pred.v[i]) ? ::bbx::to<R>(detail::value_elem(a, i)) : ::bbx::to<R>(detail::value_elem(b, i));
  return r;
}

// reduce(v, op, init): op(...op(op(init, v[0]), v[1])..., v[N-1]), in the element order.
template <class T, int N, class Op, class Init>
BBX_HOST_DEVICE auto reduce(Value<T, N> const& a, Op op, Init const& init) {
  using R = std::conditional_t<is_numeric_v<Init>, Init, T>;
  R acc = init;
  BBX_UNROLL
  for (int i = 0; i < N; ++i) acc = ::bbx::to<R>(op(acc, ::bbx::to<R>(a.v[i])));
  return acc;
}
template <class T, int N, class Op>
BBX_HOST_DEVICE T reduce(Value<T, N> const& a, Op op) {
  T acc = a.v[0];
  BBX_UNROLL
  for (int i = 1; i < N; ++i) acc = ::bbx::to<T>(op(acc, a.v[i]));
  return acc;
}

// ---- math -----------------------------------------------------------------------------------
template <class T, int N>
BBX_HOST_DEVICE Value<T, N> abs(Value<T, N> const& a) {
  return detail::value_map(a, [](T const& x) { return T(x < T(0) ? T(-x) : x); });
}
#define BBX_VALUE_MATH(NAME)                                                  \
  template <class T, int N>                                                   \
  BBX_HOST_DEVICE Value<T, N> NAME(Value<T, N> const& a) {                    \
    return detail::value_map(a, [](T const& x) { return T(::bbx::NAME(x)); }); \
  }
BBX_VALUE_MATH(exp)
BBX_VALUE_MATH(exp2)
BBX_VALUE_MATH(log)
BBX_VALUE_MATH(log2)
BBX_VALUE_MATH(sqrt)
BBX_VALUE_MATH(rsqrt)
BBX_VALUE_MATH(sin)
BBX_VALUE_MATH(cos)
BBX_VALUE_MATH(tanh)
BBX_VALUE_MATH(floor)
BBX_VALUE_MATH(ceil)
BBX_VALUE_MATH(erf)
BBX_VALUE_MATH(fast_exp)
BBX_VALUE_MATH(fast_exp2)
BBX_VALUE_MATH(fast_log)
BBX_VALUE_MATH(fast_log2)
BBX_VALUE_MATH(fast_sqrt)
BBX_VALUE_MATH(fast_rsqrt)
BBX_VALUE_MATH(fast_tanh)
BBX_VALUE_MATH(fast_erf)
BBX_VALUE_MATH(rcp_approx)
#undef BBX_VALUE_MATH

#define BBX_VALUE_MINMAX(NAME, FN)                                                          \
  template <class T, class U, int N>                                                        \
  BBX_HOST_DEVICE auto NAME(Value<T, N> const& a, Value<U, N> const& b) {                   \
    return detail::value_zip(a, b, [](T const& x, U const& y) { return FN{}(x, y); });      \
  }                                                                                         \
  template <class T, int N, class S>                                                        \
    requires(is_numeric_v<S>)                                                               \
  BBX_HOST_DEVICE auto NAME(Value<T, N> const& a, S const& s) {                             \
    using R = detail::value_scalar_result_t<T, S>;                                          \
    const R rs = ::bbx::to<R>(s);                                                           \
    return detail::value_map(a, [rs](T const& x) { return R(FN{}(::bbx::to<R>(x), rs)); }); \
  }                                                                                         \
  template <class S, class T, int N>                                                        \
    requires(is_numeric_v<S>)                                                               \
  BBX_HOST_DEVICE auto NAME(S const& s, Value<T, N> const& a) {                             \
    return NAME(a, s);                                                                      \
  }
BBX_VALUE_MINMAX(max, maximum)
BBX_VALUE_MINMAX(min, minimum)
#undef BBX_VALUE_MINMAX

// element_type_t<X>: the element type of a tensor or value (X itself for a scalar).
template <class X, class = void>
struct element_type { using type = std::remove_cvref_t<X>; };
template <class X>
struct element_type<X, std::void_t<typename std::remove_cvref_t<X>::element_type>> {
  using type = typename std::remove_cvref_t<X>::element_type;
};
template <class X>
using element_type_t = typename element_type<X>::type;

}  // namespace bbx
