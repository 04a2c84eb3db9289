// bbx/tensor/value.hpp — register values: what `t.load()` returns (CuTe DSL's TensorSSA).
//
// `Value<T, N, Shape>` is a fixed-size vector of N elements (N static). `Shape` is a `vshape<D0,
// D1, ...>` (static extents, product N) in row-major order, the last mode contiguous, as the DSL's
// `cutlass.Vector` (an MLIR n-D vector): `broadcast_to`, `outerproduct` and 2-D slices make
// shaped values (value_ops.hpp). It defaults to `vshape<N>`: a flat value, which is what `t.load()`
// returns (CuTe DSL's TensorSSA), in the tensor's 1-D (column-major coordinate) order.
// Elementwise arithmetic, comparison, math, conversion `to<U>(v)`, `reduce(v, op, init)`,
// `where(p, a, b)` and `full_like(v, x)` are provided and keep the shape; two value operands must
// have the same shape (as MLIR's vector types must match). Plain loops over a small array: after
// inlining, every element lives in its own register.
//
// Indexing (the DSL's `Vector.__getitem__`), `v(i...)` with one index per mode:
//   v(i)            element i of a 1-D value (i static or run-time; a static i may be negative)
//   v(_0{}, _2{})   element (0, 2) of a 2-D value: indices of an n-D value (n > 1) are static
//   v(_, vslice<1, 3>{}), v(_1{}, _)
//                   a sub-value of the same rank: `_` keeps a mode, `vslice<Start, Stop, Step>`
//                   is Python's `start:stop:step` (bounds clamped, negative from the end; a
//                   step other than 1 on 1-D values only), a static index keeps its mode with
//                   extent 1
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
#include "bbx/layout/int_tuple.hpp"
#include "bbx/tensor/bit_pointer.hpp"

namespace bbx {

// vshape<D0, D1, ...>: the static shape of a register value, row-major (last mode contiguous).
template <int... Ds>
struct vshape {
  static_assert(sizeof...(Ds) > 0 && ((Ds > 0) && ...),
                "bbx::vshape: Vector shape dimensions must be positive integers");
  static constexpr int rank = int(sizeof...(Ds));
  static constexpr int size = (1 * ... * Ds);
  static constexpr int extent[sizeof...(Ds)] = {Ds...};
  // extent[d] by a function (nvcc's device code reads no static arrays of the host).
  BBX_HOST_DEVICE static constexpr int dim(int d) {
    int k = 0, r = 0;
    ((r = k++ == d ? Ds : r), ...);
    return r;
  }
  // The shape as a CuTe tuple of static integers (the DSL's `v.shape`: a tuple of ints).
  BBX_HOST_DEVICE static constexpr auto tuple() { return make_shape(Int<Ds>{}...); }
};
template <class T> struct is_vshape : std::false_type {};
template <int... Ds> struct is_vshape<vshape<Ds...>> : std::true_type {};

// vslice<Start, Stop, Step>: Python's `start:stop:step` on one mode of a register value, all
// static; an omitted start is 0, an omitted stop `vslice_end` (clamped to the extent).
inline constexpr int vslice_end = 0x7fffffff;
template <int Start = 0, int Stop = vslice_end, int Step = 1>
struct vslice {};
template <class T> struct is_vslice : std::false_type {};
template <int A, int B, int St> struct is_vslice<vslice<A, B, St>> : std::true_type {};
template <class T>
inline constexpr bool is_vslice_v = is_vslice<std::remove_cvref_t<T>>::value;

namespace detail {
// What index I selects of a mode of extent E, as `start:stop:step` normalised like Python's
// slice.indices(E): `_` all of it, an integer (static) one position, kept as a mode of extent 1.
template <class I, int E, class = void>
struct vmode_slice {
  static_assert(is_C_v<I>, "Vector multi-dimensional slice: an index must be a static int or a "
                           "slice (run-time indices select elements of 1-D vectors only)");
  static constexpr int index = int(I::value) < 0 ? int(I::value) + E : int(I::value);
  static_assert(0 <= index && index < E, "Vector index out of bounds for its dimension");
  static constexpr int offset = index, size = 1, step = 1;
};
template <int E>
struct vmode_slice<Underscore, E> {
  static constexpr int offset = 0, size = E, step = 1;
};
template <int Start, int Stop, int Step, int E>
struct vmode_slice<vslice<Start, Stop, Step>, E> {
  static_assert(Step != 0, "Vector slices require a non-zero step");
  static_assert(Step > 0, "Vector slices require a positive step");
  static constexpr int clamp(int x) { return x < 0 ? (x + E < 0 ? 0 : x + E) : (x > E ? E : x); }
  static constexpr int offset = clamp(Start), stop = clamp(Stop), step = Step;
  static constexpr int size = stop > offset ? (stop - offset + Step - 1) / Step : 0;
  static_assert(size > 0, "Empty vector slices are not supported");
};
template <class I>
inline constexpr bool is_vslice_index_v = is_underscore_v<I> || is_vslice_v<I>;
}  // namespace detail

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

template <class T, int N, class Shape = vshape<N>>
struct Value;

namespace detail {
template <class T, int N, class S, class... I>
BBX_HOST_DEVICE auto value_slice(Value<T, N, S> const& a, I const&...);
// The flat (row-major) position of element (i...) of a value of shape S.
template <class S, class... I, std::size_t... K>
BBX_HOST_DEVICE constexpr int value_offset_static(std::index_sequence<K...>) {
  int idx = 0;
  ((idx = idx * S::dim(int(K)) + vmode_slice<std::remove_cvref_t<I>, S::extent[K]>::index), ...);
  return idx;
}
template <class S, class... I>
BBX_HOST_DEVICE constexpr int value_offset(I const&... i) {
  static_assert(int(sizeof...(I)) == S::rank,
                "Vector indexing: one index per dimension of the vector's shape (register values "
                "that t.load() returns are flat here: index them with one linear index)");
  if constexpr ((is_C_v<I> && ...)) {
    return value_offset_static<S, I...>(std::index_sequence_for<I...>{});
  } else {
    static_assert(S::rank == 1,
                  "Dynamic Vector indexing is only supported for 1-D vectors (the DSL's rule)");
    return (int(i) + ...);
  }
}
}  // namespace detail

template <class T, int N, class Shape>
struct Value {
  static_assert(N > 0, "bbx::Value: empty value");
  static_assert(is_vshape<Shape>::value && Shape::size == N,
                "bbx::Value: the shape is a vshape<...> of N elements");
  using value_type = T;
  using element_type = T;
  using shape_type = Shape;
  static constexpr int size_v = N;
  std::conditional_t<std::is_same_v<T, bool>, packed_bools<N>, T[N]> v;

  // T& / T const& (a bit_ref / bool for Boolean values), by flat (row-major) position.
  BBX_HOST_DEVICE constexpr decltype(auto) operator[](int i) { return v[i]; }
  BBX_HOST_DEVICE constexpr decltype(auto) operator[](int i) const { return v[i]; }
  // v(i...): an element, or a sub-value when an index is `_` or a vslice (see the top).
  template <class... I>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(I const&... i) {
    if constexpr ((detail::is_vslice_index_v<I> || ...)) return detail::value_slice(*this, i...);
    else return v[detail::value_offset<Shape>(i...)];
  }
  template <class... I>
  BBX_HOST_DEVICE constexpr decltype(auto) operator()(I const&... i) const {
    if constexpr ((detail::is_vslice_index_v<I> || ...)) return detail::value_slice(*this, i...);
    else return v[detail::value_offset<Shape>(i...)];
  }
  BBX_HOST_DEVICE static constexpr Int<N> size() { return {}; }
  // The DSL's `v.shape`: a tuple of static integers.
  BBX_HOST_DEVICE static constexpr auto shape() { return Shape::tuple(); }
  // `v.to<U>()` spelling (DSL: `x.to(dtype)`).
  template <class U>
  BBX_HOST_DEVICE Value<U, N, Shape> to() const {
    Value<U, N, Shape> r;
    BBX_UNROLL
    for (int i = 0; i < N; ++i) r.v[i] = ::bbx::to<U>(v[i]);
    return r;
  }
};

template <class T> struct is_value : std::false_type {};
template <class T, int N, class VS> struct is_value<Value<T, N, VS>> : std::true_type {};
template <class T> inline constexpr bool is_value_v = is_value<std::remove_cvref_t<T>>::value;

template <class T, int N, class VS>
BBX_HOST_DEVICE constexpr Int<N> size(Value<T, N, VS> const&) { return {}; }

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
template <class F, class T, int N, class VS>
BBX_HOST_DEVICE auto value_map(Value<T, N, VS> const& a, F f) {
  using R = std::remove_cvref_t<decltype(f(a.v[0]))>;
  Value<R, N, VS> r;
  BBX_UNROLL
  for (int i = 0; i < N; ++i) r.v[i] = f(a.v[i]);
  return r;
}
template <class F, class T, class U, int N, int N2, class VS, class VS2>
BBX_HOST_DEVICE auto value_zip(Value<T, N, VS> const& a, Value<U, N2, VS2> const& b, F f) {
  static_assert(std::is_same_v<VS, VS2>,
                "elementwise operation on Vectors of different shapes (their vector types must match)");
  using R = std::remove_cvref_t<decltype(f(a.v[0], b.v[0]))>;
  Value<R, N, VS> r;
  BBX_UNROLL
  for (int i = 0; i < N; ++i) r.v[i] = f(a.v[i], b.v[i]);
  return r;
}
}  // namespace detail

// ---- arithmetic / bitwise -------------------------------------------------------------------
#define BBX_VALUE_BINARY(OP)                                                                  \
  template <class T, class U, int N, int N2, class VS, class VS2>                             \
  BBX_HOST_DEVICE auto operator OP(Value<T, N, VS> const& a, Value<U, N2, VS2> const& b) {    \
    using R = std::remove_cvref_t<decltype(a.v[0] OP b.v[0])>;                                \
    return detail::value_zip(a, b, [](T const& x, U const& y) BBX_INLINE { return R(x OP y); });         \
  }                                                                                           \
  template <class T, int N, class VS, class S>                                                \
    requires(is_numeric_v<S>)                                                                 \
  BBX_HOST_DEVICE auto operator OP(Value<T, N, VS> const& a, S const& s) {                    \
    using R = detail::value_scalar_result_t<T, S>;                                            \
    const R rs = ::bbx::to<R>(s);                                                             \
    return detail::value_map(a, [rs](T const& x) BBX_INLINE { return R(::bbx::to<R>(x) OP rs); });       \
  }                                                                                           \
  template <class S, class T, int N, class VS>                                                \
    requires(is_numeric_v<S>)                                                                 \
  BBX_HOST_DEVICE auto operator OP(S const& s, Value<T, N, VS> const& a) {                    \
    using R = detail::value_scalar_result_t<T, S>;                                            \
    const R rs = ::bbx::to<R>(s);                                                             \
    return detail::value_map(a, [rs](T const& x) BBX_INLINE { return R(rs OP ::bbx::to<R>(x)); });       \
  }                                                                                           \
  template <class T, int N, class VS, class Rhs>                                              \
  BBX_HOST_DEVICE Value<T, N, VS>& operator OP##=(Value<T, N, VS>& a, Rhs const& b) {         \
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

// ---- comparison -> Value<bool, N, VS> ---------------------------------------------------------
#define BBX_VALUE_COMPARE(OP)                                                                 \
  template <class T, class U, int N, int N2, class VS, class VS2>                             \
  BBX_HOST_DEVICE Value<bool, N, VS> operator OP(Value<T, N, VS> const& a,                    \
                                                 Value<U, N2, VS2> const& b) {                \
    return detail::value_zip(a, b, [](T const& x, U const& y) BBX_INLINE { return bool(x OP y); });      \
  }                                                                                           \
  template <class T, int N, class VS, class S>                                                \
    requires(is_numeric_v<S>)                                                                 \
  BBX_HOST_DEVICE Value<bool, N, VS> operator OP(Value<T, N, VS> const& a, S const& s) {      \
    using R = detail::value_scalar_result_t<T, S>;                                            \
    const R rs = ::bbx::to<R>(s);                                                             \
    return detail::value_map(a, [rs](T const& x) BBX_INLINE { return bool(::bbx::to<R>(x) OP rs); });    \
  }                                                                                           \
  template <class S, class T, int N, class VS>                                                \
    requires(is_numeric_v<S>)                                                                 \
  BBX_HOST_DEVICE Value<bool, N, VS> operator OP(S const& s, Value<T, N, VS> const& a) {      \
    using R = detail::value_scalar_result_t<T, S>;                                            \
    const R rs = ::bbx::to<R>(s);                                                             \
    return detail::value_map(a, [rs](T const& x) BBX_INLINE { return bool(rs OP ::bbx::to<R>(x)); });    \
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

template <class T, int N, class VS>
BBX_HOST_DEVICE Value<T, N, VS> operator-(Value<T, N, VS> const& a) {
  return detail::value_map(a, [](T const& x) BBX_INLINE { return T(-x); });
}
template <class T, int N, class VS>
BBX_HOST_DEVICE Value<T, N, VS> operator+(Value<T, N, VS> const& a) { return a; }
template <class T, int N, class VS>
BBX_HOST_DEVICE Value<bool, N, VS> operator!(Value<T, N, VS> const& a) {
  return detail::value_map(a, [](T const& x) BBX_INLINE { return !bool(x); });
}
template <class T, int N, class VS>
BBX_HOST_DEVICE Value<T, N, VS> operator~(Value<T, N, VS> const& a) {
  return detail::value_map(a, [](T const& x) BBX_INLINE { return T(~x); });
}

// ---- conversion, construction ---------------------------------------------------------------
template <class T, class U, int N, class VS>
BBX_HOST_DEVICE Value<T, N, VS> to(Value<U, N, VS> const& a) {
  return a.template to<T>();
}
template <class T, int N, class VS, class S>
BBX_HOST_DEVICE Value<T, N, VS> full_like(Value<T, N, VS> const&, S const& x) {
  Value<T, N, VS> r;
  const T t = ::bbx::to<T>(x);
  BBX_UNROLL
  for (int i = 0; i < N; ++i) r.v[i] = t;
  return r;
}
// full_like(v, x, type_c<U>{}): same shape, element type U.
template <class T, int N, class VS, class S, class U>
BBX_HOST_DEVICE Value<U, N, VS> full_like(Value<T, N, VS> const&, S const& x, type_c<U>) {
  Value<U, N, VS> r;
  const U t = ::bbx::to<U>(x);
  BBX_UNROLL
  for (int i = 0; i < N; ++i) r.v[i] = t;
  return r;
}
template <class T, int N, class VS>
BBX_HOST_DEVICE Value<T, N, VS> zeros_like(Value<T, N, VS> const& a) { return full_like(a, 0); }
template <class T, int N, class VS>
BBX_HOST_DEVICE Value<T, N, VS> ones_like(Value<T, N, VS> const& a) { return full_like(a, 1); }

// ---- slicing --------------------------------------------------------------------------------
namespace detail {
// v(i...) with a `_` or a vslice among the indices: MLIR's vector.extract_strided_slice (or a
// shuffle for a strided 1-D slice) -> a value of the same rank, shape (size of each mode's slice).
template <class... I, class T, int N, int... Ds>
BBX_HOST_DEVICE auto value_slice_impl(Value<T, N, vshape<Ds...>> const& a) {
  static_assert(sizeof...(I) == sizeof...(Ds),
                "Vector slicing: one index or slice per dimension of the vector's shape "
                "(e.g. vec[a:b, :] for a 2-D vector)");
  static_assert(sizeof...(Ds) == 1 || ((vmode_slice<I, Ds>::step == 1) && ...),
                "Multi-dimensional strided Vector slices are not supported; use step=1");
  using R = vshape<vmode_slice<I, Ds>::size...>;
  constexpr int rank = int(sizeof...(Ds));
  constexpr int extent[] = {Ds...};
  constexpr int offset[] = {vmode_slice<I, Ds>::offset...};
  constexpr int step[] = {vmode_slice<I, Ds>::step...};
  Value<T, R::size, R> r;
  BBX_UNROLL
  for (int i = 0; i < R::size; ++i) {
    int rest = i, src = 0, stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const int c = rest % R::dim(d);
      rest /= R::dim(d);
      src += (offset[d] + c * step[d]) * stride;
      stride *= extent[d];
    }
    r[i] = a[src];
  }
  return r;
}
template <class T, int N, class S, class... I>
BBX_HOST_DEVICE auto value_slice(Value<T, N, S> const& a, I const&...) {
  return value_slice_impl<std::remove_cvref_t<I>...>(a);
}
}  // namespace detail

// ---- selection and reduction ------------------------------------------------------------------
namespace detail {
template <class X>
BBX_HOST_DEVICE decltype(auto) value_elem(X const& x, int i) {
  if constexpr (is_value_v<X>) return x.v[i];
  else return x;
}
template <class X> struct value_elem_type { using type = X; };
template <class T, int N, class VS> struct value_elem_type<Value<T, N, VS>> { using type = T; };
}  // namespace detail

// where(pred, a, b): a or b elementwise; a, b are values (of pred's shape) or scalars (a scalar
// takes the other operand's element type).
template <class P, int N, class VS, class A, class B>
BBX_HOST_DEVICE auto where(Value<P, N, VS> const& pred, A const& a, B const& b) {
  using TA = typename detail::value_elem_type<A>::type;
  using TB = typename detail::value_elem_type<B>::type;
  using R = std::conditional_t<is_value_v<A>, TA,
                               std::conditional_t<is_value_v<B>, TB, decltype(true ? TA{} : TB{})>>;
  Value<R, N, VS> r;
  BBX_UNROLL
  for (int i = 0; i < N; ++i)
    r.v[i] = bool(pred.v[i]) ? ::bbx::to<R>(detail::value_elem(a, i)) : ::bbx::to<R>(detail::value_elem(b, i));
  return r;
}

// reduce(v, op, init): op(...op(op(init, v[0]), v[1])..., v[N-1]), in the element order.
template <class T, int N, class VS, class Op, class Init>
BBX_HOST_DEVICE auto reduce(Value<T, N, VS> const& a, Op op, Init const& init) {
  using R = std::conditional_t<is_numeric_v<Init>, Init, T>;
  R acc = init;
  BBX_UNROLL
  for (int i = 0; i < N; ++i) acc = ::bbx::to<R>(op(acc, ::bbx::to<R>(a.v[i])));
  return acc;
}
template <class T, int N, class VS, class Op>
BBX_HOST_DEVICE T reduce(Value<T, N, VS> const& a, Op op) {
  T acc = a.v[0];
  BBX_UNROLL
  for (int i = 1; i < N; ++i) acc = ::bbx::to<T>(op(acc, a.v[i]));
  return acc;
}

// ---- math -----------------------------------------------------------------------------------
template <class T, int N, class VS>
BBX_HOST_DEVICE Value<T, N, VS> abs(Value<T, N, VS> const& a) {
  return detail::value_map(a, [](T const& x) BBX_INLINE { return T(x < T(0) ? T(-x) : x); });
}
#define BBX_VALUE_MATH(NAME)                                                  \
  template <class T, int N, class VS>                                         \
  BBX_HOST_DEVICE Value<T, N, VS> NAME(Value<T, N, VS> const& a) {            \
    return detail::value_map(a, [](T const& x) BBX_INLINE { return T(::bbx::NAME(x)); }); \
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
  template <class T, class U, int N, int N2, class VS, class VS2>                           \
  BBX_HOST_DEVICE auto NAME(Value<T, N, VS> const& a, Value<U, N2, VS2> const& b) {         \
    return detail::value_zip(a, b, [](T const& x, U const& y) BBX_INLINE { return FN{}(x, y); });      \
  }                                                                                         \
  template <class T, int N, class VS, class S>                                              \
    requires(is_numeric_v<S>)                                                               \
  BBX_HOST_DEVICE auto NAME(Value<T, N, VS> const& a, S const& s) {                         \
    using R = detail::value_scalar_result_t<T, S>;                                          \
    const R rs = ::bbx::to<R>(s);                                                           \
    return detail::value_map(a, [rs](T const& x) BBX_INLINE { return R(FN{}(::bbx::to<R>(x), rs)); }); \
  }                                                                                         \
  template <class S, class T, int N, class VS>                                              \
    requires(is_numeric_v<S>)                                                               \
  BBX_HOST_DEVICE auto NAME(S const& s, Value<T, N, VS> const& a) {                         \
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
