// bbx/tensor/subscript.hpp — subscript(x, i...): Python's `x[i]` where the translator does not
// know what x is (a helper's result, an untyped parameter): a tensor or register value is
// called, `x(i...)`; a tuple takes a static index, `get<I>(x)` (negative: from the end); a
// pointer (cutlass.Pointer's `p[i]`) gives a ptr_elem_ref: reading it loads the element at p + i,
// assigning to it stores there (each access reported to the simulator's checker as what it is).
// pick(i, x0, x1, ...): Python's `seq[i]` on a sequence the translator holds element by element
// (`[mA, mB]`) at an index only C++ knows (a range_constexpr loop variable): that element itself
// (a reference: writing through it writes the element).
#pragma once

#include <utility>

#include "bbx/config.hpp"
#include "bbx/layout/integer.hpp"
#include "bbx/layout/tuple.hpp"
#include "bbx/tensor/pointer.hpp"

namespace bbx {

template <class P>
struct ptr_elem_ref {
  using value_type = typename P::value_type;
  P p;
  BBX_HOST_DEVICE operator value_type() const { return p.load(); }
  template <class V>
  BBX_HOST_DEVICE ptr_elem_ref const& operator=(V const& v) const {
    p.store(value_type(v));
    return *this;
  }
  BBX_HOST_DEVICE ptr_elem_ref const& operator=(ptr_elem_ref const& o) const {
    return *this = value_type(o);
  }
};
// `auto v = p[i];`: the element (a load now), not the reference.
template <class P>
BBX_HOST_DEVICE typename P::value_type value_copy(ptr_elem_ref<P> const& r) {
  return r.p.load();
}

template <class X, class... I>
BBX_HOST_DEVICE constexpr decltype(auto) subscript(X&& x, I const&... i) {
  if constexpr (requires { std::forward<X>(x)(i...); }) {
    return std::forward<X>(x)(i...);
  } else if constexpr (sizeof...(I) == 1 && is_tuple<std::remove_cvref_t<X>>::value) {
    static_assert((requires { I::value; } && ...),
                  "x[i] on a tuple needs a compile-time index (a literal or range_constexpr)");
    constexpr int rank = int(tuple_size_v<std::remove_cvref_t<X>>);
    constexpr int index = (int(I::value), ...);
    static_assert(-rank <= index && index < rank, "x[i]: index out of range");
    return get<(index < 0 ? rank + index : index)>(std::forward<X>(x));
  } else if constexpr (sizeof...(I) == 1 && is_mem_ptr_v<X>) {
    return ptr_elem_ref<std::remove_cvref_t<decltype((x + ... + i))>>{(x + ... + i)};
  } else if constexpr (is_integral_v<std::remove_cvref_t<X>>) {
    static_assert(dependent_false<X>,
                  "x[...]: x is an integer here, not a tuple: where x is a mode of an MMA "
                  "fragment's shape, its structure is the target's MMA atom's (on AMD an "
                  "MFMA atom's), which code written for NVIDIA's fragment layout assumes otherwise");
  } else {
    static_assert(dependent_false<X>, "x[...]: x is neither a tensor nor a tuple");
  }
}

// (i: a compile-time integer; negative counts from the end)
template <class I, class X0, class... Xs>
BBX_HOST_DEVICE constexpr decltype(auto) pick(I, X0&& x0, Xs&&... xs) {
  constexpr int size = 1 + int(sizeof...(Xs));
  constexpr int index = I::value < 0 ? int(I::value) + size : int(I::value);
  static_assert(0 <= index && index < size, "seq[i]: index out of range");
  if constexpr (index == 0) {
    return std::forward<X0>(x0);
  } else {
    return pick(C<index - 1>{}, std::forward<Xs>(xs)...);
  }
}

}  // namespace bbx
