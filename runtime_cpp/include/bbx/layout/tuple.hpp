// bbx/layout/tuple.hpp — a device-friendly tuple with the empty-base optimisation.
//
// Each element lives in its own indexed base `detail::ebo<I, T>`. An empty element (a static
// integer, a tuple of static integers, a static layout) stores nothing and `get` returns a fresh
// `T{}`, so a tuple of static elements is itself an empty type (`std::is_empty_v`).
#pragma once

#include <cstddef>
// <utility> declares std::tuple_size / std::tuple_element (structured-binding customisation).
#include <type_traits>
#include <utility>

#include "integer.hpp"

namespace bbx {

namespace detail {
template <std::size_t I, class T, bool Empty = std::is_empty_v<T>>
struct ebo;

template <std::size_t I, class T>
struct ebo<I, T, true> {
  BBX_HOST_DEVICE constexpr ebo() {}
  BBX_HOST_DEVICE constexpr ebo(T const&) {}
};

template <std::size_t I, class T>
struct ebo<I, T, false> {
  T value_;
  BBX_HOST_DEVICE constexpr ebo() : value_{} {}
  template <class U>
  BBX_HOST_DEVICE constexpr ebo(U const& u) : value_(u) {}
};

template <std::size_t I, class T>
BBX_HOST_DEVICE constexpr T ebo_get(ebo<I, T, true> const&) {
  return T{};
}
template <std::size_t I, class T>
BBX_HOST_DEVICE constexpr T const& ebo_get(ebo<I, T, false> const& e) {
  return e.value_;
}
template <std::size_t I, class T>
BBX_HOST_DEVICE constexpr T& ebo_get(ebo<I, T, false>& e) {
  return e.value_;
}
template <std::size_t I, class T>
BBX_HOST_DEVICE constexpr T ebo_get_rv(ebo<I, T, true> const&) {
  return T{};
}
template <std::size_t I, class T>
BBX_HOST_DEVICE constexpr T&& ebo_get_rv(ebo<I, T, false>&& e) {
  return static_cast<T&&>(e.value_);
}

struct convert_tag {};
template <class Seq, class... Ts>
struct tuple_base;
template <std::size_t... Is, class... Ts>
struct tuple_base<std::index_sequence<Is...>, Ts...> : ebo<Is, Ts>... {
  BBX_HOST_DEVICE constexpr tuple_base() {}
  template <class... Us>
  BBX_HOST_DEVICE constexpr explicit tuple_base(int, Us const&... us) : ebo<Is, Ts>(us)... {}
};
}  // namespace detail

template <class... Ts>
struct tuple : detail::tuple_base<std::index_sequence_for<Ts...>, Ts...> {
  using base_t = detail::tuple_base<std::index_sequence_for<Ts...>, Ts...>;
  BBX_HOST_DEVICE constexpr tuple() {}
  BBX_HOST_DEVICE constexpr tuple(Ts const&... ts) : base_t(0, ts...) {}
  // Element-wise conversion, e.g. tuple<_4, int> -> tuple<int, int>.
  // (Unconstrained for compile speed: a rank mismatch is a hard error in the body.)
  template <class... Us>
  BBX_HOST_DEVICE constexpr tuple(tuple<Us...> const& u)
      : tuple(detail::convert_tag{}, u, std::index_sequence_for<Ts...>{}) {}

 private:
  template <class U, std::size_t... Is>
  BBX_HOST_DEVICE constexpr tuple(detail::convert_tag, U const& u, std::index_sequence<Is...>)
      : base_t(0, Ts(detail::ebo_get<Is>(u))...) {}
};
template <>
struct tuple<> {
  BBX_HOST_DEVICE constexpr tuple() {}
};

// ---- traits ---------------------------------------------------------------------------------
template <class T>
struct is_tuple : std::false_type {};
template <class... Ts>
struct is_tuple<tuple<Ts...>> : std::true_type {};
template <class T>
inline constexpr bool is_tuple_v = is_tuple<std::remove_cvref_t<T>>::value;

template <class T>
struct tuple_size;
template <class... Ts>
struct tuple_size<tuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
template <class T>
inline constexpr std::size_t tuple_size_v = tuple_size<std::remove_cvref_t<T>>::value;

template <std::size_t I, class T>
struct tuple_element;
template <std::size_t I, class T0, class... Ts>
struct tuple_element<I, tuple<T0, Ts...>> : tuple_element<I - 1, tuple<Ts...>> {};
template <class T0, class... Ts>
struct tuple_element<0, tuple<T0, Ts...>> {
  using type = T0;
};
template <std::size_t I, class T>
using tuple_element_t = typename tuple_element<I, std::remove_cvref_t<T>>::type;

// ---- access ---------------------------------------------------------------------------------
// get<I>(t): a reference for stored elements, a fresh value for empty (static) elements.
// get<I, J, ...>(t) == get<J, ...>(get<I>(t)). get<0>(x) of a non-tuple x is x (rank-1 view).
template <std::size_t I, class... Ts>
BBX_HOST_DEVICE constexpr decltype(auto) get(tuple<Ts...> const& t) {
  static_assert(I < sizeof...(Ts), "bbx::get: index out of range");
  return detail::ebo_get<I>(t);
}
template <std::size_t I, class... Ts>
BBX_HOST_DEVICE constexpr decltype(auto) get(tuple<Ts...>& t) {
  static_assert(I < sizeof...(Ts), "bbx::get: index out of range");
  return detail::ebo_get<I>(t);
}
template <std::size_t I, class... Ts>
BBX_HOST_DEVICE constexpr decltype(auto) get(tuple<Ts...>&& t) {
  static_assert(I < sizeof...(Ts), "bbx::get: index out of range");
  return detail::ebo_get_rv<I>(static_cast<tuple<Ts...>&&>(t));
}
template <std::size_t I, auto v>
BBX_HOST_DEVICE constexpr C<v> get(C<v> x) {
  static_assert(I == 0, "bbx::get: index out of range for a non-tuple (rank-1) value");
  return x;
}
// (Plain overloads rather than a constrained template: every get<I>(tuple) call would pay for
// the constraint check.)
#define BBX_GET_SCALAR(T)                                                                      \
  template <std::size_t I>                                                                     \
  BBX_HOST_DEVICE constexpr T get(T x) {                                                       \
    static_assert(I == 0, "bbx::get: index out of range for a non-tuple (rank-1) value");     \
    return x;                                                                                  \
  }
BBX_GET_SCALAR(int)
BBX_GET_SCALAR(unsigned)
BBX_GET_SCALAR(long)
BBX_GET_SCALAR(unsigned long)
BBX_GET_SCALAR(long long)
BBX_GET_SCALAR(unsigned long long)
#undef BBX_GET_SCALAR
template <std::size_t I0, std::size_t I1, std::size_t... Is, class T>
BBX_HOST_DEVICE constexpr decltype(auto) get(T&& t) {
  return get<I1, Is...>(get<I0>(static_cast<T&&>(t)));
}

// ---- construction ---------------------------------------------------------------------------
template <class... Ts>
BBX_HOST_DEVICE constexpr tuple<std::remove_cvref_t<Ts>...> make_tuple(Ts const&... ts) {
  return tuple<std::remove_cvref_t<Ts>...>(ts...);
}

namespace detail {
template <class F, class T, std::size_t... Is>
BBX_HOST_DEVICE constexpr decltype(auto) apply_impl(T&& t, F&& f, std::index_sequence<Is...>) {
  return f(get<Is>(static_cast<T&&>(t))...);
}
template <class T0, class T1, std::size_t... I0, std::size_t... I1>
BBX_HOST_DEVICE constexpr auto tuple_cat2(T0 const& a, T1 const& b, std::index_sequence<I0...>,
                                          std::index_sequence<I1...>) {
  return make_tuple(get<I0>(a)..., get<I1>(b)...);
}
}  // namespace detail

// apply(t, f) == f(get<0>(t), get<1>(t), ...)
template <class T, class F>
BBX_HOST_DEVICE constexpr decltype(auto) apply(T&& t, F&& f) {
  return detail::apply_impl(static_cast<T&&>(t), f,
                            std::make_index_sequence<tuple_size_v<T>>{});
}

BBX_HOST_DEVICE constexpr tuple<> tuple_cat() { return {}; }
template <class T0>
BBX_HOST_DEVICE constexpr T0 tuple_cat(T0 const& a) {
  return a;
}
template <class T0, class T1, class... Ts>
BBX_HOST_DEVICE constexpr auto tuple_cat(T0 const& a, T1 const& b, Ts const&... ts) {
  return tuple_cat(detail::tuple_cat2(a, b, std::make_index_sequence<tuple_size_v<T0>>{},
                                      std::make_index_sequence<tuple_size_v<T1>>{}),
                   ts...);
}

// ---- comparison (element-wise, static when both sides are static) ---------------------------
template <class... Ts, class... Us>
BBX_HOST_DEVICE constexpr auto operator==(tuple<Ts...> const& a, tuple<Us...> const& b) {
  if constexpr (sizeof...(Ts) != sizeof...(Us)) {
    return false_type{};
  } else if constexpr (sizeof...(Ts) == 0) {
    return true_type{};
  } else {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) BBX_INLINE {
      return ((get<Is>(a) == get<Is>(b)) && ...);
    }(std::index_sequence_for<Ts...>{});
  }
}
template <class... Ts, class... Us>
BBX_HOST_DEVICE constexpr auto operator!=(tuple<Ts...> const& a, tuple<Us...> const& b) {
  return !(a == b);
}

}  // namespace bbx

// Structured bindings: auto [m, n] = shape;
template <class... Ts>
struct std::tuple_size<bbx::tuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
template <std::size_t I, class... Ts>
struct std::tuple_element<I, bbx::tuple<Ts...>> {
  using type = typename bbx::tuple_element<I, bbx::tuple<Ts...>>::type;
};
